package main

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeSnapshotCommands runs the first two commands of the README's
// snapshot section through the installed pair pilotage-lint and
// pilotage-lint-snapshot: over stdio with ./my-server standing for the
// testdata server, and over Streamable HTTP against that server behind a
// bearer-token check, the token read from the environment.
func TestReadmeSnapshotCommands(t *testing.T) {
	server := pilotserver(t)
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "## Snapshots from live servers, and breaking changes\n\n```sh\n")
	if !ok {
		t.Fatal("README lost its snapshot section")
	}
	block, _, _ := strings.Cut(rest, "```")
	lines := strings.Split(block, "\n")
	stdio, remote := lines[0], lines[1]
	const hosted = "https://mcp.example.com/mcp"
	if !strings.HasSuffix(stdio, "-- ./my-server --stdio") || !strings.Contains(remote, hosted) || !strings.Contains(remote, "${MCP_TOKEN}") {
		t.Fatalf("the README's snapshot commands changed; update this test:\n%s\n%s", stdio, remote)
	}

	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "../pilotage-lint", ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(work, "my-server"), []byte("#!/bin/sh\nexec "+server+"\n"), 0o755))
	calls, err := os.ReadFile(filepath.Join(serverTestdata, "calls.json"))
	must(err)
	must(os.WriteFile(filepath.Join(work, "calls.json"), calls, 0o644))

	cmd := exec.Command(server, "-http", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	must(err)
	must(cmd.Start())
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	must(err)
	target, err := url.Parse(strings.TrimSpace(strings.TrimPrefix(line, "listening on ")))
	must(err)
	const token = "t0ken-from-the-environment"
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer front.Close()

	for _, tc := range []struct{ line, out string }{
		{stdio, "snapshots/pilotage-server.json"},
		{strings.Replace(remote, hosted, front.URL+"/mcp", 1), "snapshots/remote/pilotage-server.json"},
	} {
		sh := exec.Command("sh", "-c", tc.line)
		sh.Dir = work
		sh.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+"/usr/bin:/bin", "MCP_TOKEN="+token)
		out, err := sh.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.line, err, out)
		}
		if strings.Contains(string(out), token) {
			t.Errorf("%s: the token shows in the output:\n%s", tc.line, out)
		}
		data, err := os.ReadFile(filepath.Join(work, tc.out))
		must(err)
		if strings.Contains(string(data), token) {
			t.Errorf("%s: the token is in the snapshot", tc.line)
		}
		if got, _ := lintFile(t, filepath.Join(work, tc.out)); got != "" {
			t.Errorf("%s: the snapshot draws findings:\n%s", tc.line, got)
		}
	}

	// Without the token the server refuses, and the message says so.
	sh := exec.Command("sh", "-c", strings.Replace(remote, hosted, front.URL+"/mcp", 1))
	sh.Dir = work
	sh.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+"/usr/bin:/bin", "MCP_TOKEN=wrong")
	out, err := sh.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "refused the request: HTTP 401 Unauthorized from "+front.URL+"/mcp") {
		t.Errorf("a refused token: %v\n%s", err, out)
	}
}
