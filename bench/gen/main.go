// Command gen writes the benchmark inputs: a Harborview-sized snapshot (9
// tools, 2 Languages) with its manifest alone and 1,000 copies of it, and
// snapshots of gateway-sized servers (tools/list plus a manifest with many
// Languages).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pilotagekit/pilotagekit/internal/benchdata"
)

func main() {
	out := flag.String("out", "bench/out", "folder to write into")
	langs := flag.Int("languages", 200, "Languages in the manifest of the large snapshots")
	copies := flag.Int("copies", 1000, "copies of the small snapshot under many/")
	flag.Parse()
	must(os.MkdirAll(filepath.Join(*out, "many"), 0o755))

	small := benchdata.Snapshot(9, 2)
	write(filepath.Join(*out, "snapshot-9.json"), small)
	var doc struct{ Manifest json.RawMessage }
	must(json.Unmarshal(small, &doc))
	write(filepath.Join(*out, "manifest.json"), doc.Manifest)
	for i := 0; i < *copies; i++ {
		must(os.WriteFile(filepath.Join(*out, "many", fmt.Sprintf("s%04d.json", i)), small, 0o644))
	}
	fmt.Printf("%s/many: %d copies\n", *out, *copies)

	for _, n := range []int{1000, 10000, 100000} {
		write(filepath.Join(*out, fmt.Sprintf("snapshot-%dk.json", n/1000)), benchdata.Snapshot(n, *langs))
	}
}

func write(p string, data []byte) {
	must(os.WriteFile(p, data, 0o644))
	fmt.Printf("%s: %s\n", p, benchdata.SizeString(len(data)))
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
