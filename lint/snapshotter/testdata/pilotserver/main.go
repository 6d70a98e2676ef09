// Command pilotserver serves internal/pilotserver, a small Pilotage server
// written with the MCP Go SDK, for the snapshot end-to-end tests.
//
// -mode selects its behaviour: compliant, full, faulty and nomanifest are
// the modes of pilotserver.Config; two more fail before any Pilotage:
//
//	silent      reads requests and never answers
//	crash       exits before the handshake
//
// -fault NAME (or PILOTSERVER_FAULT) breaks one requirement that one probe
// of lint/probe observes; pilotserver.Faults lists the faults.
//
// -context gives calc/1 (-mode full) a context_schema requiring a unit.
//
// -pagesize N pages tools/list N tools at a time.
//
// -http ADDR serves Streamable HTTP on ADDR and prints "listening on URL".
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/internal/pilotserver"
)

func main() {
	mode := flag.String("mode", "compliant", "compliant, full, faulty, nomanifest, silent or crash")
	pageSize := flag.Int("pagesize", 0, "tools per tools/list page (0: the SDK default)")
	fault := flag.String("fault", os.Getenv("PILOTSERVER_FAULT"), "break one requirement (see pilotserver.Faults); default $PILOTSERVER_FAULT")
	calcContext := flag.Bool("context", false, "with -mode full: calc/1 declares a context_schema that requires a unit")
	httpAddr := flag.String("http", "", "serve Streamable HTTP on this address instead of stdio")
	flag.Parse()
	if !pilotserver.ValidFault(*fault) {
		log.Fatalf("unknown fault %q", *fault)
	}
	switch *mode {
	case "crash":
		fmt.Fprintln(os.Stderr, "pilotserver: crashing on purpose")
		os.Exit(3)
	case "silent":
		_, _ = io.Copy(io.Discard, os.Stdin)
		select {}
	}
	cfg := pilotserver.Config{Mode: *mode, Fault: *fault, PageSize: *pageSize, Context: *calcContext}
	if *httpAddr != "" {
		ln, err := net.Listen("tcp", *httpAddr)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("listening on http://%s/mcp\n", ln.Addr())
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return pilotserver.New(cfg) }, nil)
		log.Fatal(http.Serve(ln, h))
	}
	if err := pilotserver.New(cfg).Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
