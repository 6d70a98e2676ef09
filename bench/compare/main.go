// Command compare runs several commands in rounds, one after another in
// each round and in a rotated order from round to round, so that every
// command sees the same machine state; it prints each command's wall time,
// CPU time (user+system), peak RSS and page faults (minor and major) as ratios to the first command's in
// the same round, as min, median and max over the rounds. Usage:
//
//	compare -rounds 10 -label NAME -names floor,lint -bytes N -- CMD0 ARGS... -- CMD1 ARGS... [-- ...]
//
// With -bytes, peak RSS is also printed per input byte.
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
	wall, cpu time.Duration
	rss       int64 // bytes
	faults    int64 // minor and major page faults
}

func runOnce(argv []string) (sample, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = nil, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		// Exit status 1 is "findings" for linters and validators alike.
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() > 1 {
			return sample{}, fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
		}
	}
	s := sample{wall: wall}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		s.rss = ru.Maxrss * 1024
		s.faults = ru.Minflt + ru.Majflt
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

func spread(xs []float64, f string) string {
	l, m, h := stats(xs)
	return fmt.Sprintf(f+" ("+f+"–"+f+")", m, l, h)
}

func main() {
	rounds := flag.Int("rounds", 10, "number of rounds; each runs every command once")
	label := flag.String("label", "", "label for the report lines")
	names := flag.String("names", "", "comma-separated names of the commands (default cmd0, cmd1, ...)")
	inBytes := flag.Int64("bytes", 0, "input size in bytes, to print peak RSS per input byte")
	flag.Parse()
	var cmds [][]string
	cur := []string{}
	for _, a := range flag.Args() {
		if a == "--" {
			if len(cur) > 0 {
				cmds = append(cmds, cur)
			}
			cur = []string{}
			continue
		}
		cur = append(cur, a)
	}
	if len(cur) > 0 {
		cmds = append(cmds, cur)
	}
	if len(cmds) < 2 {
		fmt.Fprintln(os.Stderr, "compare: need at least two commands separated by --")
		os.Exit(2)
	}
	label2 := strings.Split(*names, ",")
	for len(label2) < len(cmds) {
		label2 = append(label2, fmt.Sprintf("cmd%d", len(label2)))
	}
	// One unmeasured run each warms the page cache.
	for _, argv := range cmds {
		if _, err := runOnce(argv); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	samples := make([][]sample, len(cmds))
	for r := 0; r < *rounds; r++ {
		for j := range cmds {
			i := (j + r) % len(cmds)
			s, err := runOnce(cmds[i])
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			samples[i] = append(samples[i], s)
		}
	}
	fmt.Printf("%s (%d rounds; ratios to %s in the same round, median (min–max))\n", *label, *rounds, label2[0])
	for i := range cmds {
		var wr, cr, rr, fr, wms, cms, mib, flt, perByte []float64
		for r, s := range samples[i] {
			ref := samples[0][r]
			wr = append(wr, float64(s.wall)/float64(ref.wall))
			cr = append(cr, float64(s.cpu)/float64(max(ref.cpu, 1)))
			rr = append(rr, float64(s.rss)/float64(max(ref.rss, 1)))
			fr = append(fr, float64(s.faults)/float64(max(ref.faults, 1)))
			flt = append(flt, float64(s.faults)/1000)
			wms = append(wms, float64(s.wall.Microseconds())/1000)
			cms = append(cms, float64(s.cpu.Microseconds())/1000)
			mib = append(mib, float64(s.rss)/(1<<20))
			if *inBytes > 0 {
				perByte = append(perByte, float64(s.rss)/float64(*inBytes))
			}
		}
		line := fmt.Sprintf("  %-10s wall %s ms  cpu %s ms  rss %s MiB  faults %s k", label2[i], spread(wms, "%.1f"), spread(cms, "%.1f"), spread(mib, "%.1f"), spread(flt, "%.1f"))
		if i > 0 {
			line += fmt.Sprintf("  | wall x%s  cpu x%s  rss x%s  faults x%s", spread(wr, "%.2f"), spread(cr, "%.2f"), spread(rr, "%.2f"), spread(fr, "%.2f"))
		}
		if *inBytes > 0 {
			line += fmt.Sprintf("  | rss/input byte %s", spread(perByte, "%.2f"))
		}
		fmt.Println(line)
	}
}
