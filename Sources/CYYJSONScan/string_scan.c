#include "yy_json_scan.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define YY_AVX2_PATH 1
#else
#define YY_AVX2_PATH 0
#endif

#if YY_AVX2_PATH

// UTF-8 validation by lookup (Keiser and Lemire, "Validating UTF-8 in less than one instruction per
// byte", 2021): each byte is classified by the high nibble of the byte before it, that byte's low
// nibble and its own high nibble; a bit set in all three classes is an error. Each bit names one
// kind of error.
enum {
    TOO_SHORT = 1 << 0,     // a lead byte followed by a lead byte or ASCII
    TOO_LONG = 1 << 1,      // ASCII followed by a continuation byte
    OVERLONG_3 = 1 << 2,    // E0 followed by 80..9F
    TOO_LARGE = 1 << 3,     // F4 followed by 90..BF, or F5..FF
    SURROGATE = 1 << 4,     // ED followed by A0..BF
    OVERLONG_2 = 1 << 5,    // C0 or C1
    TOO_LARGE_1000 = 1 << 6,// F5..FF followed by 80..8F
    OVERLONG_4 = 1 << 6,    // F0 followed by 80..8F (shares the bit: the low nibbles tell them apart)
    TWO_CONTINUATIONS = 1 << 7,  // right only as the third or fourth byte of a sequence
    CARRY = TOO_SHORT | TOO_LONG | TWO_CONTINUATIONS,
};

/// A 16-entry table for _mm256_shuffle_epi8, once for each 128-bit lane.
#define TABLE16(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)                                           \
    _mm256_setr_epi8((char)(a), (char)(b), (char)(c), (char)(d), (char)(e), (char)(f), (char)(g), (char)(h),  \
                     (char)(i), (char)(j), (char)(k), (char)(l), (char)(m), (char)(n), (char)(o), (char)(p),  \
                     (char)(a), (char)(b), (char)(c), (char)(d), (char)(e), (char)(f), (char)(g), (char)(h),  \
                     (char)(i), (char)(j), (char)(k), (char)(l), (char)(m), (char)(n), (char)(o), (char)(p))

/// The error classes of bytes `input` after `previous`, one byte of flags each (0 where valid),
/// except those that only the bytes after `input` can show (a sequence cut short at its end).
__attribute__((target("avx2")))
static inline __m256i utf8_errors(__m256i input, __m256i previous) {
    // The one, two and three bytes before each byte of `input`, across the 128-bit lanes.
    const __m256i carried = _mm256_permute2x128_si256(previous, input, 0x21);
    const __m256i prev1 = _mm256_alignr_epi8(input, carried, 15);
    const __m256i prev2 = _mm256_alignr_epi8(input, carried, 14);
    const __m256i prev3 = _mm256_alignr_epi8(input, carried, 13);

    const __m256i low_nibble = _mm256_set1_epi8(0x0F);
    const __m256i byte_1_high = _mm256_shuffle_epi8(
        TABLE16(TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
                                  TWO_CONTINUATIONS, TWO_CONTINUATIONS, TWO_CONTINUATIONS, TWO_CONTINUATIONS,
                                  TOO_SHORT | OVERLONG_2, TOO_SHORT, TOO_SHORT | OVERLONG_3 | SURROGATE,
                                  TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4),
        _mm256_and_si256(_mm256_srli_epi16(prev1, 4), low_nibble));
    const __m256i byte_1_low = _mm256_shuffle_epi8(
        TABLE16(CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, CARRY | OVERLONG_2, CARRY, CARRY,
                                  CARRY | TOO_LARGE, CARRY | TOO_LARGE | TOO_LARGE_1000,
                                  CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
                                  CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
                                  CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
                                  CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
                                  CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000),
        _mm256_and_si256(prev1, low_nibble));
    const __m256i byte_2_high = _mm256_shuffle_epi8(
        TABLE16(TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
                                  TOO_LONG | OVERLONG_2 | TWO_CONTINUATIONS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
                                  TOO_LONG | OVERLONG_2 | TWO_CONTINUATIONS | OVERLONG_3 | TOO_LARGE,
                                  TOO_LONG | OVERLONG_2 | TWO_CONTINUATIONS | SURROGATE | TOO_LARGE,
                                  TOO_LONG | OVERLONG_2 | TWO_CONTINUATIONS | SURROGATE | TOO_LARGE,
                                  TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT),
        _mm256_and_si256(_mm256_srli_epi16(input, 4), low_nibble));
    const __m256i special = _mm256_and_si256(_mm256_and_si256(byte_1_high, byte_1_low), byte_2_high);

    // Two continuation bytes in a row are right exactly where a byte two or three back opens a
    // three- or four-byte sequence (E0..FF two back, F0..FF three back): saturating subtraction
    // leaves the high bit set for those.
    const __m256i third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((char)(0xE0 - 0x80)));
    const __m256i fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((char)(0xF0 - 0x80)));
    const __m256i must_continue = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8((char)0x80));
    return _mm256_xor_si256(must_continue, special);
}

/// One bit per byte of `block` that ends plain string text: `"`, `\` or below 0x20.
__attribute__((target("avx2")))
static inline uint32_t stop_bits(__m256i block) {
    const __m256i quotes = _mm256_cmpeq_epi8(block, _mm256_set1_epi8('"'));
    const __m256i backslashes = _mm256_cmpeq_epi8(block, _mm256_set1_epi8('\\'));
    const __m256i controls = _mm256_cmpeq_epi8(_mm256_min_epu8(block, _mm256_set1_epi8(0x1F)), block);
    return (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(quotes, backslashes), controls));
}

__attribute__((target("avx2")))
static ptrdiff_t scan_avx2(const uint8_t *text, size_t length) {
    __m256i previous = _mm256_setzero_si256();
    __m256i errors = _mm256_setzero_si256();
    int previous_has_multibyte = 0;
    for (size_t offset = 0; offset < length; offset += 32) {
        __m256i block;
        if (length - offset >= 32) {
            block = _mm256_loadu_si256((const __m256i *)(text + offset));
        } else {
            // The last bytes, padded with quotes: the scan stops in this block at the latest.
            uint8_t tail[32];
            memset(tail, '"', sizeof tail);
            memcpy(tail, text + offset, length - offset);
            block = _mm256_loadu_si256((const __m256i *)tail);
        }
        const uint32_t stops = stop_bits(block);
        const int has_multibyte = _mm256_movemask_epi8(block) != 0;
        if (stops != 0) {
            const unsigned stop = (unsigned)__builtin_ctz(stops);
            if (has_multibyte || previous_has_multibyte) {
                // Bytes from the stop on become zero (ASCII): a sequence cut short by the stop is
                // an error, and what follows the string plays no part.
                const __m256i indices = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
                                                         18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
                const __m256i before_stop = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)stop), indices);
                errors = _mm256_or_si256(errors, utf8_errors(_mm256_and_si256(block, before_stop), previous));
            }
            if (!_mm256_testz_si256(errors, errors)) return -1;
            const size_t end = offset + stop;
            return end < length ? (ptrdiff_t)end : -1;
        }
        if (has_multibyte || previous_has_multibyte) errors = _mm256_or_si256(errors, utf8_errors(block, previous));
        previous = block;
        previous_has_multibyte = has_multibyte;
    }
    // No stop (`length` is a multiple of 32): an unfinished string, the caller's to report.
    return -1;
}

static int avx2_supported(void) {
    static _Atomic int answer = -1;
    int value = answer;
    if (value < 0) {
        __builtin_cpu_init();
        value = __builtin_cpu_supports("avx2") ? 1 : 0;
        answer = value;
    }
    return value;
}

int yy_json_scan_available(void) { return avx2_supported(); }

ptrdiff_t yy_json_scan_string(const uint8_t *text, size_t length) {
    return avx2_supported() ? scan_avx2(text, length) : -1;
}

#else

int yy_json_scan_available(void) { return 0; }

ptrdiff_t yy_json_scan_string(const uint8_t *text, size_t length) {
    (void)text;
    (void)length;
    return -1;
}

#endif
