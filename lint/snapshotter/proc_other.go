//go:build !unix

package snapshotter

import "os/exec"

// process is the server the snapshotter started.
type process struct{ cmd *exec.Cmd }

func newProcess(cmd *exec.Cmd) *process { return &process{cmd: cmd} }

// stop kills the server if the SDK's shutdown left it running.
func (p *process) stop() {
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Kill()
	}
}
