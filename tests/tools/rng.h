/* xorshift64*: a tiny deterministic generator, the same on every machine (unlike
 * rand()), shared by the test tools. */
#ifndef GJ_TESTS_RNG_H
#define GJ_TESTS_RNG_H

static unsigned long long rng_state;

static inline unsigned rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (unsigned)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

#endif /* GJ_TESTS_RNG_H */
