// Command rawserver runs the lumen/1 Pilotage server of package rawserver
// (no MCP SDK) over stdio, or over Streamable HTTP with -http.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"

	"github.com/pilotagekit/pilotagekit/internal/rawserver"
)

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP on this address (such as 127.0.0.1:8080) instead of stdio")
	fault := flag.String("fault", "", "inject one spec violation (see the list below); empty is conformant")
	sse := flag.String("sse", "tools", "HTTP answers as text/event-stream: tools (tools/call only), always or never")
	verbose := flag.Bool("v", false, "log transport events to standard error")
	flag.Usage = func() {
		out := flag.CommandLine.Output()
		fmt.Fprintf(out, "usage: rawserver [-http ADDR] [-fault NAME] [-sse MODE] [-v]\n\n")
		fmt.Fprintf(out, "A Pilotage server for the lighting-scene Language lumen/1, written with the Go\n")
		fmt.Fprintf(out, "standard library only. Without -http it speaks MCP on stdin/stdout.\n\nflags:\n")
		flag.PrintDefaults()
		fmt.Fprintf(out, "\nfaults (-fault NAME):\n")
		for _, n := range rawserver.FaultNames() {
			fmt.Fprintf(out, "  %-22s %s\n", n, rawserver.FaultDoc(n))
		}
	}
	flag.Parse()
	logger := log.New(os.Stderr, "rawserver: ", log.LstdFlags)
	opts := rawserver.Options{Fault: *fault, SSE: *sse}
	if *verbose {
		opts.Log = logger
	}
	srv, err := rawserver.New(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rawserver:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *addr == "" {
		if err := srv.ServeStdio(ctx, os.Stdin, os.Stdout); err != nil && !errors.Is(err, context.Canceled) {
			logger.Fatal(err)
		}
		return
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		logger.Fatal(err)
	}
	logger.Printf("serving Streamable HTTP on http://%s/mcp", ln.Addr())
	hs := &http.Server{Handler: srv.Handler()}
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		logger.Fatal(err)
	}
}
