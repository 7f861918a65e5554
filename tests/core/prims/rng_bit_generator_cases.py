"""The cases of `test_rng_bit_generator.py`, shared with `record_rng_bit_generator.py`: keys
(a carry into the counter's high word, a zero key), shapes (0-d, odd, even, size-1 axes, empty)
and every dtype, for each algorithm."""

KEYS = {
    "small": [1, 2, 3, 4],
    "carry": [0x9E3779B9, 0x7F4A7C15, 0xFFFFFFFE, 0xFFFFFFFF],
    "zero": [0, 0, 0, 0],
}
SHAPES = [(), (1,), (5,), (2, 3), (3, 5), (3, 1, 5), (1, 6, 1), (4, 0), (3, 3, 2)]
DTYPES = ["uint8", "uint16", "uint32"]
ALGORITHMS = ["RNG_DEFAULT", "RNG_THREE_FRY", "RNG_PHILOX"]
# uint64 bits and uint64[2] keys (x64 only)
X64_KEYS = {"wide": [0x0123456789ABCDEF, 0xFFFFFFFFFFFFFFFD]}
X64_SHAPES = [(), (3,), (2, 3)]
