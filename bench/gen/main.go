// Command gen writes the benchmark inputs: snapshots of gateway-sized
// servers (tools/list plus a manifest with many Languages).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pilotagekit/pilotagekit/internal/benchdata"
)

func main() {
	out := flag.String("out", "bench/out", "folder to write into")
	langs := flag.Int("languages", 200, "Languages in the manifest")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, n := range []int{1000, 10000, 100000} {
		data := benchdata.Snapshot(n, *langs)
		p := filepath.Join(*out, fmt.Sprintf("snapshot-%dk.json", n/1000))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%s: %d tools, %d Languages, %s\n", p, n, *langs, benchdata.SizeString(len(data)))
	}
}
