/* Compiler portability for every ofc_fast kernel: inline and restrict
 * spellings, bit counting, a prefetch hint, load-time CPU dispatch, and a
 * clock.  gcc and clang on
 * Linux and macOS, and MSVC on Windows (the wheel workflow builds all three);
 * nothing else in src/ or the .pyx files spells a compiler extension. */
#ifndef OFC_COMPAT_H
#define OFC_COMPAT_H
#include <stdint.h>

#if defined(_MSC_VER)
#include <intrin.h>
#define OFC_INLINE static __inline
#define OFC_ALWAYS_INLINE static __forceinline
#define OFC_RESTRICT __restrict
/* Index of the lowest set bit; x must not be 0. */
OFC_ALWAYS_INLINE int ofc_ctz64(uint64_t x)
{
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
/* Index of the highest set bit; x must not be 0. */
OFC_ALWAYS_INLINE int ofc_msb64(uint64_t x)
{
    unsigned long i;
    _BitScanReverse64(&i, x);
    return (int)i;
}
/* Portable popcount: __popcnt64 needs the POPCNT instruction at run time. */
OFC_ALWAYS_INLINE int ofc_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}
#define OFC_PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#else
#define OFC_INLINE static inline
#define OFC_ALWAYS_INLINE static inline __attribute__((always_inline))
#define OFC_RESTRICT __restrict__
OFC_ALWAYS_INLINE int ofc_ctz64(uint64_t x) { return __builtin_ctzll(x); }
OFC_ALWAYS_INLINE int ofc_msb64(uint64_t x) { return 63 - __builtin_clzll(x); }
OFC_ALWAYS_INLINE int ofc_popcount64(uint64_t x) { return __builtin_popcountll(x); }
/* A hint to load the cache line at p (no effect on results). */
#define OFC_PREFETCH(p) __builtin_prefetch(p)
#endif

/* Little-endian byte order (every platform the wheels are built for): byte k
 * of a word loaded from memory is bits 8k..8k+7, so ofc_ctz64 / 8 finds the
 * first flagged byte.  Code that relies on it keeps a bytewise fallback. */
#if defined(_MSC_VER) || (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#define OFC_LITTLE_ENDIAN 1
#else
#define OFC_LITTLE_ENDIAN 0
#endif

/* An AVX2 clone beside the baseline one where the toolchain picks between
 * them at load time (gcc on x86-64 Linux); elsewhere the baseline only. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define OFC_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define OFC_CLONES
#endif

/* Seconds on a monotonic clock, from an arbitrary start (the solver's time
 * budget).  POSIX clock_gettime(CLOCK_MONOTONIC) on Linux and macOS; on
 * Windows C11 timespec_get (the UCRT's, since Visual Studio 2015), which is
 * wall-clock time: a budget spans a clock adjustment rarely, and the
 * solver's completion cap bounds a decision then.  No <windows.h> here:
 * this header is in every kernel. */
#include <time.h>
OFC_INLINE double ofc_seconds(void)
{
    struct timespec ts;
#if defined(_WIN32)
    timespec_get(&ts, TIME_UTC);
#else
    clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif /* OFC_COMPAT_H */
