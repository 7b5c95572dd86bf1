// A stand-in for Windows 10's bcryptprimitives.dll, which Wine 8.0 (Debian 12) lacks
// and Go's runtime (1.22 and later) loads at start for ProcessPrng. packaging/scripts/windows-test.sh
// builds it with mingw-w64 and puts it into the Wine prefix's system32 before the test
// starts; it is never shipped (every Windows 10 and 11 has the real one).
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
  while (len > 0) {
    ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
    if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG))) {
      return FALSE;
    }
    data += n;
    len -= n;
  }
  return TRUE;
}
