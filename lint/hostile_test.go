package lint_test

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// TestLintEngineLinksNoNetwork: the packages of the lint path import no
// network, process or TLS package, so no schema, rule or input can make the
// linter reach out or run anything. net/url is allowed: it only parses
// strings (schemacheck resolves $ref with it to tell local from external);
// net/netip likewise (the JSON Schema library's ipv4/ipv6 formats). The
// CLI binary itself is not checked: its snapshot subcommand is an MCP
// client and legitimately links net.
func TestLintEngineLinksNoNetwork(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	pkgs := []string{"lint", "lint/source", "lint/snapshot", "lint/rules", "lint/inputs", "lint/config", "lint/report", "lint/schemacheck"}
	args := []string{"list", "-deps"}
	for _, p := range pkgs {
		args = append(args, "github.com/pilotagekit/pilotagekit/"+p)
	}
	out, err := exec.Command("go", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	forbidden := map[string]bool{"net": true, "net/http": true, "net/rpc": true, "net/smtp": true, "net/mail": true,
		"crypto/tls": true, "os/exec": true, "plugin": true, "syscall/js": true}
	deps := strings.Fields(string(out))
	for _, d := range deps {
		if forbidden[d] || strings.HasPrefix(d, "net/http/") || strings.HasPrefix(d, "golang.org/x/net/") || strings.HasPrefix(d, "github.com/modelcontextprotocol/") || strings.HasPrefix(d, "github.com/mark3labs/") {
			t.Errorf("the lint engine links %s", d)
		}
	}
	if len(deps) < 20 {
		t.Errorf("go list -deps printed only %d packages: %q", len(deps), out)
	}
}

// TestTimeoutBetweenRules: a context that ends while a file is being linted
// stops it at the next rule boundary, and the error names the file.
func TestTimeoutBetweenRules(t *testing.T) {
	var slow []*lint.Rule
	for range 50 {
		slow = append(slow, &lint.Rule{ID: "slow", Severity: lint.Error, Syntax: true, Check: func(*lint.Pass) { time.Sleep(20 * time.Millisecond) }})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := lint.Run(ctx, []lint.Input{{Name: "slow.json", Data: []byte(`{"_meta": {"io.github.jafarsa0/pilotage": {}}}`), Explicit: true}}, &lint.Options{Rules: slow})
	if d := time.Since(start); d > 700*time.Millisecond {
		t.Errorf("Run took %v after a 100ms deadline with 20ms rules", d)
	}
	var se *lint.StoppedError
	if !errors.As(err, &se) || !errors.Is(err, context.DeadlineExceeded) || strings.Join(se.Files, ",") != "slow.json" {
		t.Fatalf("got %v, want a StoppedError naming slow.json", err)
	}
	if se.Error() != "context deadline exceeded while linting slow.json" {
		t.Errorf("message %q", se.Error())
	}
}

// TestStoppedNamesWhatWasLeft: a run stopped by its context says which
// inputs it was linting and which it never started, whatever the timing.
func TestStoppedNamesWhatWasLeft(t *testing.T) {
	in := func(names ...string) []lint.Input {
		var out []lint.Input
		for _, n := range names {
			out = append(out, lint.Input{Name: n, Data: []byte(`{"_meta": {"io.github.jafarsa0/pilotage": {}}}`), Explicit: true})
		}
		return out
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"a.json", "b.json"}, "context canceled before linting a.json, b.json"},
		{[]string{"a.json", "b.json", "c.json", "d.json"}, "context canceled before linting any of 4 inputs"},
	} {
		_, err := lint.Run(cancelled, in(c.names...), &lint.Options{})
		var se *lint.StoppedError
		if !errors.As(err, &se) || len(se.Files) != 0 || strings.Join(se.Pending, ",") != strings.Join(c.names, ",") {
			t.Fatalf("got %v, want a StoppedError with every input pending", err)
		}
		if se.Error() != c.want {
			t.Errorf("message %q; want %q", se.Error(), c.want)
		}
	}

	// One worker: the deadline ends the first input between rules, and the
	// second, handed over after the end or not at all, is never started.
	var slow []*lint.Rule
	for range 50 {
		slow = append(slow, &lint.Rule{ID: "slow", Severity: lint.Error, Syntax: true, Check: func(*lint.Pass) { time.Sleep(20 * time.Millisecond) }})
	}
	ctx, stop := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer stop()
	_, err := lint.Run(ctx, in("slow.json", "next.json"), &lint.Options{Rules: slow, Jobs: 1})
	var se *lint.StoppedError
	if !errors.As(err, &se) || strings.Join(se.Files, ",") != "slow.json" || strings.Join(se.Pending, ",") != "next.json" {
		t.Fatalf("got %v, want slow.json stopped and next.json pending", err)
	}
	if want := "context deadline exceeded while linting slow.json; 1 more input not started"; se.Error() != want {
		t.Errorf("message %q; want %q", se.Error(), want)
	}
}

// TestNonObjectTopLevel: a document that is a scalar, null or a plain array
// is an input-kind finding and nothing else; the whole rule set runs on it
// without failing.
func TestNonObjectTopLevel(t *testing.T) {
	for _, text := range []string{`42`, `"x"`, `null`, `true`, `-1.5e3`, `[1, 2]`, `[[]]`, `[null]`, `{}`} {
		_, fs := lint.LintFile(&lint.Input{Name: "x.json", Data: []byte(text), Explicit: true}, &lint.Options{Rules: rules.All()})
		if len(fs) != 1 || fs[0].Rule != lint.InputKindRule.ID || fs[0].Line != 1 || fs[0].Column != 1 {
			t.Errorf("%s: %+v", text, fs)
		}
	}
}
