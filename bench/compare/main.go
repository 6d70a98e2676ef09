// Command compare runs two commands alternately, in pairs, and prints the
// ratio of their wall times and peak RSS as min/median/max, so that both
// sides see the same machine state. Usage:
//
//	compare -pairs 10 -label NAME -- CMD A ARGS... -- CMD B ARGS...
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"time"
)

type sample struct {
	wall time.Duration
	rss  int64 // KiB
}

func runOnce(argv []string) (sample, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = nil, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() > 1 {
			return sample{}, fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
		}
	}
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	s := sample{wall: wall}
	if ru != nil {
		s.rss = ru.Maxrss
	}
	return s, nil
}

func stats(xs []float64) (lo, med, hi float64) {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	med = s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return s[0], med, s[n-1]
}

func main() {
	pairs := flag.Int("pairs", 10, "number of alternated A/B pairs")
	label := flag.String("label", "", "label for the report line")
	flag.Parse()
	// flag.Parse consumes the first "--"; the second separates A from B.
	args := flag.Args()
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	sep := -1
	for i, a := range args {
		if a == "--" {
			sep = i
			break
		}
	}
	if sep <= 0 || sep == len(args)-1 {
		fmt.Fprintln(os.Stderr, "compare: need two commands separated by --")
		os.Exit(2)
	}
	a, b := args[:sep], args[sep+1:]
	// One unmeasured run each warms the page cache.
	for _, argv := range [][]string{a, b} {
		if _, err := runOnce(argv); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	var wallRatio, rssRatio, aWall, bWall, aRSS []float64
	for i := 0; i < *pairs; i++ {
		sa, err := runOnce(a)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		sb, err := runOnce(b)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		wallRatio = append(wallRatio, float64(sa.wall)/float64(sb.wall))
		rssRatio = append(rssRatio, float64(sa.rss)/float64(max(sb.rss, 1)))
		aWall = append(aWall, float64(sa.wall.Microseconds())/1000)
		bWall = append(bWall, float64(sb.wall.Microseconds())/1000)
		aRSS = append(aRSS, float64(sa.rss)/1024)
	}
	l, m, h := stats(wallRatio)
	fmt.Printf("%s: wall A/B ratio min %.2f median %.2f max %.2f (%d pairs)\n", *label, l, m, h, *pairs)
	l, m, h = stats(rssRatio)
	fmt.Printf("%s: peak RSS A/B ratio min %.2f median %.2f max %.2f\n", *label, l, m, h)
	l, m, h = stats(aWall)
	fmt.Printf("%s: A wall ms min %.1f median %.1f max %.1f\n", *label, l, m, h)
	l, m, h = stats(bWall)
	fmt.Printf("%s: B wall ms min %.1f median %.1f max %.1f\n", *label, l, m, h)
	l, m, h = stats(aRSS)
	fmt.Printf("%s: A peak RSS MiB min %.1f median %.1f max %.1f\n", *label, l, m, h)
}
