/* A stand-in for Windows' bcryptprimitives.dll, for the Wine tests only (never shipped):
 * Wine 8.0 lacks the DLL, and Rust's std imports ProcessPrng from it, so no Rust program
 * starts. ProcessPrng fills the buffer from advapi32's RtlGenRandom (SystemFunction036),
 * which Wine has. Real Windows (10 and later) has the DLL itself. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG n = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, n)) return FALSE;
        data += n;
        length -= n;
    }
    return TRUE;
}
