import { describe, expect, it } from 'vitest';
import { Outage } from '../../src/ratelimit/outage.ts';
import { sleep } from '../support/net.ts';

/** An outage whose probe writes succeed while `up`, and the changes it reported. */
function watched(probeEveryMs = 20) {
  const changes: (string | undefined)[] = [];
  let up = false;
  let probes = 0;
  const outage = new Outage({
    probeEveryMs,
    probe: async () => {
      probes++;
      if (!up) throw new Error('write refused');
      return 1;
    },
    changed: (reason) => changes.push(reason),
  });
  return { outage, changes, probes: () => probes, setUp: (value: boolean) => (up = value) };
}

describe('a store outage', () => {
  it('is said once however many calls fail, and once more when a probe write goes through', async () => {
    const { outage, changes, setUp } = watched();
    expect(outage.skips()).toBe(false);
    const generation = outage.generation;
    for (let i = 0; i < 50; i++) outage.failed(`failure ${i}`, generation);
    expect(changes).toEqual(['failure 0']);
    expect(outage.reason).toBe('failure 0');
    expect(outage.skips()).toBe(true);
    await sleep(60);
    expect(changes).toEqual(['failure 0']);
    setUp(true);
    await sleep(60);
    expect(changes).toEqual(['failure 0', undefined]);
    expect(outage.skips()).toBe(false);
    outage.close();
  });

  it('ignores the failure of a call sent before the last change (a late reply after a recovery)', async () => {
    const { outage, changes, setUp } = watched();
    const before = outage.generation;
    outage.failed('lost', before);
    setUp(true);
    await sleep(50);
    expect(changes).toEqual(['lost', undefined]);
    // A call sent while the store was up the first time fails late: it says nothing about now.
    outage.failed('late', before);
    expect(changes).toEqual(['lost', undefined]);
    expect(outage.skips()).toBe(false);
    outage.close();
  });

  it('probes one write at a time, not per request, while down', async () => {
    const { outage, probes } = watched(1000);
    outage.failed('lost', outage.generation);
    for (let i = 0; i < 100; i++) outage.skips();
    // The first probe is due a second after the loss (the timer's or a request's, whichever comes first).
    expect(probes()).toBe(0);
    outage.close();
  });

  it('lets the calls waiting on the store go at once when it is lost', async () => {
    const { outage } = watched();
    const never = new Promise<number>(() => {});
    const waiting = outage.waitFor(
      never,
      (count) => `counted ${count}`,
      () => 'failed',
      () => 'released',
    );
    outage.failed('lost', outage.generation);
    expect(await waiting).toBe('released');
    const answered = outage.waitFor(
      Promise.resolve(3),
      (count) => `counted ${count}`,
      () => 'failed',
      () => 'released',
    );
    expect(await answered).toBe('counted 3');
    outage.close();
  });

  it('lets go exactly the calls still waiting, each once, after many came and went in any order', async () => {
    const { outage } = watched();
    const calls = Array.from({ length: 200 }, (_, i) => {
      let answer!: (count: number) => void;
      const call = new Promise<number>((resolve) => (answer = resolve));
      const releases: number[] = [];
      const waiting = outage.waitFor(
        call,
        (count) => `counted ${count}`,
        () => 'failed',
        () => {
          releases.push(i);
          return 'released';
        },
      );
      return { i, answer, waiting, releases };
    });
    // Answered in an order that takes calls from the head, the tail and the middle of those waiting.
    const answered = calls.filter(({ i }) => i % 3 !== 0).sort((a, b) => ((a.i * 7919) % 200) - ((b.i * 7919) % 200));
    for (const { i, answer } of answered) answer(i);
    await Promise.all(answered.map(({ waiting }) => waiting));
    outage.failed('lost', outage.generation);
    outage.failed('lost again', outage.generation);
    for (const { i, waiting, releases } of calls) {
      const stillWaiting = i % 3 === 0;
      expect(await waiting).toBe(stillWaiting ? 'released' : `counted ${i}`);
      expect(releases).toEqual(stillWaiting ? [i] : []);
    }
    outage.close();
  });
});
