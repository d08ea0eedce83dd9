/** The attackers' request of bench/blocking.ts: 10,000 instance elements (586 KB; a 27 MB answer). */
export const ATTACK_BATCH = JSON.stringify(
  Array.from({ length: 10_000 }, (_, index) => ({
    instance: index % 2 === 0 ? 'm5.large' : 't2.micro',
    region: 'us_east_1',
    duration: (index % 24) + 1,
  })),
);
