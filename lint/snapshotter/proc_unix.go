//go:build unix

package snapshotter

import (
	"os/exec"
	"syscall"
)

// process is the server the snapshotter started. It runs in a process group
// of its own so that stopping it also stops what it started (a `go run`
// wrapper, a shell script's children).
type process struct{ cmd *exec.Cmd }

func newProcess(cmd *exec.Cmd) *process {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return &process{cmd: cmd}
}

// stop kills the group the server led. The SDK has already closed stdin and
// waited for the server itself; this catches children left behind and a
// server whose handshake never completed.
func (p *process) stop() {
	if p.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
}
