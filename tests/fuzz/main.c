/* libFuzzer's entry for one fuzzer: built once per fuzzer with
 * -DFUZZ_ENTRY=fuzz_NAME (make fuzz). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return FUZZ_ENTRY(data, size);
}
