package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair, so the colour decision can be
// tested against a real terminal rather than a mock.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var n uint32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); errno != 0 {
		t.Skipf("TIOCGPTN: %v", errno)
	}
	var unlock int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
		t.Skipf("TIOCSPTLCK: %v", errno)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pts: %v", err)
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

func TestColourOnlyOnATerminalWithoutNoColor(t *testing.T) {
	master, tty := openPTY(t)
	t.Setenv("NO_COLOR", "")
	if !colorOK(tty) {
		t.Error("a terminal with NO_COLOR empty should get colour (no-color.org: only a non-empty value disables it)")
	}
	var buf bytes.Buffer
	if colorOK(&buf) {
		t.Error("a buffer is not a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	must(t, err)
	defer f.Close()
	if colorOK(f) {
		t.Error("a regular file is not a terminal")
	}
	t.Setenv("NO_COLOR", "1")
	if colorOK(tty) {
		t.Error("NO_COLOR=1 must turn colour off on a terminal")
	}

	// End to end: the text report on the terminal is coloured, the same
	// report in an --output file is not.
	t.Setenv("NO_COLOR", "")
	tmp := t.TempDir()
	in := badCopy(t, tmp, "s.json")
	got := make(chan string)
	go func() {
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			b.Write(buf[:n])
			if err != nil || strings.Contains(b.String(), " in 1 file") {
				break
			}
		}
		got <- b.String()
	}()
	var stderr bytes.Buffer
	t.Chdir(tmp)
	code := run([]string{"--no-config", "--output", "text=plain.txt", in}, strings.NewReader(""), tty, &stderr)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := <-got
	if !strings.Contains(out, "\x1b[1;31merror\x1b[0m") {
		t.Errorf("no colour on the terminal: %q", out)
	}
	plain, err := os.ReadFile("plain.txt")
	must(t, err)
	if bytes.Contains(plain, []byte("\x1b[")) {
		t.Errorf("colour in the --output file: %q", plain)
	}
}
