package snapshotter_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestEngineLinksNoNetwork keeps linting offline: the engine packages must
// not import this package, the MCP SDK, or any network package.
func TestEngineLinksNoNetwork(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	engine := []string{"../../lint", "../../lint/source", "../../lint/snapshot", "../../lint/rules", "../../lint/inputs", "../../lint/config", "../../lint/report", "../../lint/diff"}
	out, err := exec.Command("go", append([]string{"list", "-deps"}, engine...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch {
		case strings.HasSuffix(dep, "/lint/snapshotter"),
			strings.HasPrefix(dep, "github.com/modelcontextprotocol/go-sdk"),
			dep == "net", dep == "net/http", dep == "crypto/tls", strings.HasPrefix(dep, "net/http/"):
			t.Errorf("the lint engine links %s; keep network code in lint/snapshotter", dep)
		}
	}
}
