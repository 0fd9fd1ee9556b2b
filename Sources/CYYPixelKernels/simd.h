// The one place that decides whether the AVX2 kernels are compiled (private to this target).
#ifndef YYKIT_PIXEL_KERNELS_SIMD_H
#define YYKIT_PIXEL_KERNELS_SIMD_H

// x86-64 with a compiler that takes `__attribute__((target("avx2")))`: the AVX2 kernels are built
// beside the portable ones and chosen at run time by yy_pixel_kernels_use_avx2().
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define YY_AVX2_PATH 1
#else
#define YY_AVX2_PATH 0
#endif

#endif
