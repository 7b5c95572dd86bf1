package cache

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"vika/backend/message"
)

// The fault tests run this test binary again as a writer process (the
// helper below) and kill it, or run two at once.

const (
	helperDir  = "VIKA_CACHE_TEST_WRITER_DIR"
	helperName = "VIKA_CACHE_TEST_WRITER_NAME"
)

// TestHelperWriter is not a test: run by the fault tests with helperDir
// set, it writes entries of 200 kB in a loop (forever, or n of them) and
// prints "wrote i" after each commit.
func TestHelperWriter(t *testing.T) {
	dir := os.Getenv(helperDir)
	if dir == "" {
		t.Skip("helper process of the fault tests, not a test on its own")
	}
	name := os.Getenv(helperName)
	n, _ := strconv.Atoi(os.Getenv("VIKA_CACHE_TEST_WRITER_N"))
	c, err := Open(context.Background(), dir, Options{})
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(2)
	}
	for i := 0; n == 0 || i < n; i++ {
		if err := c.Put(context.Background(), helperKey(name, i), helperValue(name, i)); err != nil {
			fmt.Println("put:", err)
			os.Exit(3)
		}
		fmt.Println("wrote", i)
	}
	c.Close()
	os.Exit(0)
}

func helperKey(name string, i int) Key {
	return Key{Doc: fmt.Sprintf("%s-%d", name, i), Setup: "s", Part: PartDocument}
}

func helperValue(name string, i int) value {
	return value{Text: name, Blob: bytes.Repeat([]byte{byte(i)}, 200_000)}
}

func writer(t *testing.T, dir, name string, n int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$")
	cmd.Env = append(os.Environ(), helperDir+"="+dir, helperName+"="+name, "VIKA_CACHE_TEST_WRITER_N="+strconv.Itoa(n))
	return cmd
}

// checkConsistent opens dir's cache and checks that SQLite finds it
// intact and every entry reads back whole; it returns how many there are.
func checkConsistent(t *testing.T, dir, name string) int {
	t.Helper()
	c, n := openTest(t, dir, 0)
	db, _ := c.conn()
	var res string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&res); err != nil || res != "ok" {
		t.Fatalf("integrity_check = %q, %v", res, err)
	}
	in, _ := c.Info(context.Background())
	for i := range in.Entries {
		var v value
		ok, err := c.Get(context.Background(), helperKey(name, i), &v)
		if err != nil || !ok {
			t.Fatalf("entry %d of %d: %v, %v", i, in.Entries, ok, err)
		}
		if want := helperValue(name, i); v.Text != want.Text || !bytes.Equal(v.Blob, want.Blob) {
			t.Fatalf("entry %d read back wrong", i)
		}
	}
	if len(n.list()) > 0 {
		t.Errorf("notices %v", n.list())
	}
	return in.Entries
}

func TestKillDuringWrite(t *testing.T) {
	dir := t.TempDir()
	for round := range 3 {
		cmd := writer(t, dir, "w", 0)
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 4096)
		var seen []byte
		for !bytes.Contains(seen, []byte(fmt.Sprintf("wrote %d\n", 5+round*3))) { // some commits, then mid-write
			k, err := out.Read(buf)
			if err != nil {
				t.Fatalf("writer ended early: %v: %s", err, seen)
			}
			seen = append(seen, buf[:k]...)
		}
		time.Sleep(time.Duration(round) * 7 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		got := checkConsistent(t, dir, "w")
		t.Logf("round %d: killed after %d+ commits, %d entries read back whole", round, 5+round*3, got)
		if got < 6 {
			t.Errorf("round %d: only %d entries survive", round, got)
		}
		// The next round's writer starts again at 0: rewrite in place.
	}
}

func TestTwoProcessesWriteTheSameCache(t *testing.T) {
	dir := t.TempDir()
	a, b := writer(t, dir, "a", 40), writer(t, dir, "b", 40)
	var outA, outB bytes.Buffer
	a.Stdout, b.Stdout = &outA, &outB
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	errA, errB := a.Wait(), b.Wait()
	if errA != nil || errB != nil {
		t.Fatalf("writers: %v (%s), %v (%s)", errA, lastLine(outA), errB, lastLine(outB))
	}
	c, n := openTest(t, dir, 0)
	for _, name := range []string{"a", "b"} {
		for i := range 40 {
			var v value
			if ok, err := c.Get(context.Background(), helperKey(name, i), &v); !ok || err != nil || !bytes.Equal(v.Blob, helperValue(name, i).Blob) {
				t.Fatalf("%s %d: %v, %v", name, i, ok, err)
			}
		}
	}
	if len(n.list()) > 0 {
		t.Errorf("notices %v", n.list())
	}
}

func lastLine(b bytes.Buffer) string {
	lines := bytes.Split(bytes.TrimSpace(b.Bytes()), []byte("\n"))
	return string(lines[len(lines)-1])
}

// TestDiskFull writes into a 2 MB tmpfs (mounting needs root: skipped
// with a message otherwise; make test and CI run as root, where a mount
// that fails is a failure) until it fills: the cache turns off with one
// notice, and what it held stays readable to the next session.
func TestDiskFull(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root; run as root to fill a disk")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Fatalf("mount a 2 MB tmpfs as root: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	dir := filepath.Join(mnt, "vika")
	ctx := context.Background()
	c, n := openTest(t, dir, 0)
	var err error
	written := 0
	for i := 0; i < 100 && err == nil; i++ {
		if err = c.Put(ctx, helperKey("f", i), helperValue("f", i)); err == nil {
			written++
		}
	}
	if err == nil {
		t.Fatal("100 entries of 200 kB fit in 2 MB")
	}
	if !c.Off() || !errorsIsOff(err) {
		t.Errorf("after a full disk: Off %v, err %v", c.Off(), err)
	}
	if got := n.list(); len(got) != 1 || got[0] != message.CacheDiskFull {
		t.Errorf("notices %v", got)
	}
	var v value
	if _, err := c.Get(ctx, helperKey("f", 0), &v); !errorsIsOff(err) {
		t.Errorf("Get on a cache turned off: %v", err)
	}
	t.Logf("%d entries written before the disk filled: %v", written, err)
	c.Close()
	if got := checkConsistent(t, dir, "f"); got != written {
		t.Errorf("%d entries readable after the disk filled, %d written", got, written)
	}
}

func errorsIsOff(err error) bool { return errors.Is(err, ErrOff) }
