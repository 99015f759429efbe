/* The seeded random streams of the play kernels: xoshiro256** seeded from
 * (seed, stream) through splitmix64, draws below a bound, and the partial
 * Fisher-Yates deals of card arrays.
 *
 * Every random result of ofc_fast (rollouts, move values, and games played in
 * C) comes from these functions, so a stream is the same in every kernel and
 * on every thread: stream k of a seed is a function of (seed, k) alone.  Tests
 * pin results of these streams: change nothing here without a new stream.
 */
#ifndef OFC_RNG_H
#define OFC_RNG_H
#include <stdint.h>
#include "ofc_compat.h"

typedef struct {
    uint64_t s[4];
} ofc_rng;

/* splitmix64: the next output of the state *x (advanced). */
OFC_ALWAYS_INLINE uint64_t ofc_splitmix64(uint64_t *x)
{
    uint64_t z;
    *x += 0x9E3779B97F4A7C15ull;
    z = *x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The xoshiro256** state of stream `stream` of `seed` (through splitmix64). */
OFC_ALWAYS_INLINE void ofc_rng_seed(ofc_rng *g, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull);
    g->s[0] = ofc_splitmix64(&x);
    g->s[1] = ofc_splitmix64(&x);
    g->s[2] = ofc_splitmix64(&x);
    g->s[3] = ofc_splitmix64(&x);
}

/* The next 64-bit output of xoshiro256**. */
OFC_ALWAYS_INLINE uint64_t ofc_rng_next(ofc_rng *g)
{
    uint64_t result = g->s[1] * 5;
    uint64_t t = g->s[1] << 17;
    result = ((result << 7) | (result >> 57)) * 9;
    g->s[2] ^= g->s[0];
    g->s[3] ^= g->s[1];
    g->s[1] ^= g->s[2];
    g->s[0] ^= g->s[3];
    g->s[2] ^= t;
    g->s[3] = (g->s[3] << 45) | (g->s[3] >> 19);
    return result;
}

/* Uniform in [0, n) for small n, from the high half of one output (bias
 * below n / 2**32). */
OFC_ALWAYS_INLINE uint32_t ofc_rng_below(ofc_rng *g, uint32_t n)
{
    return (uint32_t)(((ofc_rng_next(g) >> 32) * (uint64_t)n) >> 32);
}

/* Partial Fisher-Yates, one output a swap: u[0 .. total - 1] become a
 * uniformly random draw of the nu cards of u (total <= nu). */
OFC_ALWAYS_INLINE void ofc_shuffle_prefix(ofc_rng *g, uint8_t *u, int nu, int total)
{
    for (int j = 0; j < total; j++) {
        uint32_t r = (uint32_t)j + ofc_rng_below(g, (uint32_t)(nu - j));
        uint8_t tmp = u[j];
        u[j] = u[r];
        u[r] = tmp;
    }
}

/* ofc_shuffle_prefix, each card drawn also written to out[slot[j]] (the
 * empty slots of a layout) in the same pass: the same stream and result. */
OFC_ALWAYS_INLINE void ofc_shuffle_into(ofc_rng *g, uint8_t *u, int nu, int total, uint8_t *out,
                                        const uint8_t *slot)
{
    for (int j = 0; j < total; j++) {
        uint32_t r = (uint32_t)j + ofc_rng_below(g, (uint32_t)(nu - j));
        uint8_t tmp = u[j];
        u[j] = u[r];
        u[r] = tmp;
        out[slot[j]] = u[j];
    }
}

/* The same draw, two swaps per 64-bit output (its high and low halves, both
 * of full quality in xoshiro256**; bias below nu / 2**32): another stream
 * than ofc_shuffle_prefix's, used by the move values. */
OFC_ALWAYS_INLINE void ofc_deal_prefix(ofc_rng *g, uint8_t *u, int nu, int total)
{
    int j = 0;
    uint64_t x;
    uint32_t r;
    uint8_t tmp;
    while (j + 1 < total) {
        x = ofc_rng_next(g);
        r = (uint32_t)j + (uint32_t)(((x >> 32) * (uint64_t)(nu - j)) >> 32);
        tmp = u[j];
        u[j] = u[r];
        u[r] = tmp;
        r = (uint32_t)(j + 1) + (uint32_t)(((uint64_t)(uint32_t)x * (uint64_t)(nu - j - 1)) >> 32);
        tmp = u[j + 1];
        u[j + 1] = u[r];
        u[r] = tmp;
        j += 2;
    }
    if (j < total) {
        r = (uint32_t)j + ofc_rng_below(g, (uint32_t)(nu - j));
        tmp = u[j];
        u[j] = u[r];
        u[r] = tmp;
    }
}

/* numpy's SeedSequence(entropy).generate_state(1, uint64)[0] for an entropy
 * given as its assembled 32-bit words (an int >= 0 is its little-endian
 * 32-bit words, 0 being one word 0; a sequence the concatenation of its
 * items' words; no spawn key): the 64-bit key of a kernel seed
 * (ofc_fast._args.kernel_seed), computed without Python, so a batch of
 * games keys game i by the entropy [seed, i] at C speed.  Pool size 4, the
 * hash and mix constants of numpy.random.bit_generator. */
OFC_ALWAYS_INLINE uint32_t ofc_ss_hashmix(uint32_t value, uint32_t *hash_const)
{
    value ^= *hash_const;
    *hash_const *= 0x931e8875u;
    value *= *hash_const;
    value ^= value >> 16;
    return value;
}

OFC_ALWAYS_INLINE uint32_t ofc_ss_mix(uint32_t x, uint32_t y)
{
    uint32_t r = 0xca01f9ddu * x - 0x4973f715u * y;
    r ^= r >> 16;
    return r;
}

OFC_ALWAYS_INLINE uint64_t ofc_seed_key(const uint32_t *words, int n)
{
    uint32_t pool[4], hc = 0x43b0d7e5u, hb = 0x8b51f9ddu, out[2];
    int i, j;
    for (i = 0; i < 4; i++)
        pool[i] = ofc_ss_hashmix(i < n ? words[i] : 0u, &hc);
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++)
            if (i != j)
                pool[j] = ofc_ss_mix(pool[j], ofc_ss_hashmix(pool[i], &hc));
    for (i = 4; i < n; i++)
        for (j = 0; j < 4; j++)
            pool[j] = ofc_ss_mix(pool[j], ofc_ss_hashmix(words[i], &hc));
    for (i = 0; i < 2; i++) {
        uint32_t v = pool[i] ^ hb;
        hb *= 0x58f38dedu;
        v *= hb;
        v ^= v >> 16;
        out[i] = v;
    }
    return (uint64_t)out[0] | ((uint64_t)out[1] << 32);
}

#endif /* OFC_RNG_H */
