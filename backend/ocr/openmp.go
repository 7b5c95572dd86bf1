//go:build cgo && (linux || darwin || freebsd)

package ocr

// Tesseract parallelises inside a page with OpenMP. On a machine that is
// already busy with one page per core this only adds contention: measured
// on a 2-core machine, a 300 DPI page took 8-12 s with OpenMP left alone
// and 1.4-1.9 s with one thread.
//
// OMP_THREAD_LIMIT=1 would do, but only when it is in the environment
// when the process starts: libgomp parses its environment in an ELF
// constructor that runs when libtesseract is loaded, before any Go code,
// so os.Setenv from Go (even in an init function) is too late for this
// process (measured: no effect). Instead each worker thread sets its own
// max-active-levels to 0 with omp_set_max_active_levels, which turns every
// OpenMP parallel region run on that thread into a team of one (unlike
// omp_set_num_threads, which Tesseract's num_threads clauses override).
// The setting is per thread in libgomp and LLVM's libomp, hence the
// workers' runtime.LockOSThread. The function is looked up at run time so
// that a Tesseract built without OpenMP needs nothing.

/*
#cgo linux LDFLAGS: -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

typedef void (*vika_omp_setter)(int);

static int vika_omp_single_thread(void) {
	vika_omp_setter set = (vika_omp_setter)dlsym(RTLD_DEFAULT, "omp_set_max_active_levels");
	if (set == NULL) {
		return 0;
	}
	set(0);
	return 1;
}
static int vika_omp_max_active_levels(void) {
	int (*get)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "omp_get_max_active_levels");
	return get == NULL ? -1 : get();
}
*/
import "C"

// singleThreadOpenMP makes OpenMP regions run on the calling OS thread
// single-threaded. The caller must have locked its goroutine to the
// thread. It reports whether an OpenMP runtime was found.
func singleThreadOpenMP() bool { return C.vika_omp_single_thread() != 0 }

// openMPMaxActiveLevels reports the calling thread's max-active-levels,
// or -1 without an OpenMP runtime (for tests).
func openMPMaxActiveLevels() int { return int(C.vika_omp_max_active_levels()) }
