package pilotagetest_test

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/internal/pilotserver"
	"github.com/pilotagekit/pilotagekit/pilotagetest"
)

// newServer is the server of the README's example: the testdata server
// with one fault, a refused Run answered with isError: true.
func newServer() *mcp.Server {
	return pilotserver.New(pilotserver.Config{Mode: "full", Fault: "guard-iserror"})
}

// readmeRun, set in the environment, makes TestPilotage the README's test.
const readmeRun = "PILOTAGETEST_README"

// TestPilotage is the test the README shows, as a user writes it. Run
// plainly, it runs itself again in a child test binary, where it fails on
// the server's fault, and checks that the README shows that output
// exactly, durations aside.
func TestPilotage(t *testing.T) {
	if os.Getenv(readmeRun) != "" {
		pilotagetest.Run(t, newServer())
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPilotage$")
	cmd.Env = append(os.Environ(), readmeRun+"=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the README's test passes:\n%s", out)
	}
	got, _, _ := strings.Cut(string(out), "\nFAIL\n")
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const intro = "a failure names its vector, and the line of your test that called `Run`:\n\n```text\n"
	_, rest, ok := strings.Cut(string(readme), intro)
	if !ok {
		t.Fatal("the README lost the sample failure of pilotagetest")
	}
	want, _, _ := strings.Cut(rest, "\n```")
	// Durations vary, and so do the run_ids the server makes up.
	varies := regexp.MustCompile(`\(\d+\.\d+s\)|calc-run-[0-9a-f]{16}`)
	if varies.ReplaceAllString(got, "…") != varies.ReplaceAllString(want, "…") {
		t.Errorf("the README's sample is stale; replace it with:\n%s", got)
	}
}
