/* Compiler portability for every ofc_fast kernel: inline and restrict
 * spellings, bit counting, and load-time CPU dispatch.  gcc and clang on
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
/* Portable popcount: __popcnt64 needs the POPCNT instruction at run time. */
OFC_ALWAYS_INLINE int ofc_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}
#else
#define OFC_INLINE static inline
#define OFC_ALWAYS_INLINE static inline __attribute__((always_inline))
#define OFC_RESTRICT __restrict__
OFC_ALWAYS_INLINE int ofc_ctz64(uint64_t x) { return __builtin_ctzll(x); }
OFC_ALWAYS_INLINE int ofc_popcount64(uint64_t x) { return __builtin_popcountll(x); }
#endif

/* An AVX2 clone beside the baseline one where the toolchain picks between
 * them at load time (gcc on x86-64 Linux); elsewhere the baseline only. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define OFC_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define OFC_CLONES
#endif

#endif /* OFC_COMPAT_H */
