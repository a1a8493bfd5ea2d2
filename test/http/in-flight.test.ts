import { describe, expect, it } from 'vitest';
import { InFlight } from '../../src/http/in-flight.ts';

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
};

describe('InFlight', () => {
  it('is idle at once with nothing in flight', async () => {
    expect(await settled(new InFlight().idle())).toBe(true);
  });

  it('settles every waiter, however many, once the last request ends', async () => {
    const requests = new InFlight();
    requests.start();
    requests.start();
    const waiters = [requests.idle(), requests.idle(), requests.idle()];
    expect(requests.count).toBe(2);
    requests.end();
    expect(await Promise.all(waiters.map(settled))).toEqual([false, false, false]);
    requests.end();
    expect(await Promise.all(waiters.map(settled))).toEqual([true, true, true]);
    expect(requests.count).toBe(0);
  });

  it('waits again for requests that start after an idle moment', async () => {
    const requests = new InFlight();
    requests.start();
    requests.end();
    requests.start();
    const waiter = requests.idle();
    expect(await settled(waiter)).toBe(false);
    requests.end();
    expect(await settled(waiter)).toBe(true);
  });
});
