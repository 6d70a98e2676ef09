package snapshotter

// given counts the ways of reaching a server that Options sets; Take wants
// exactly one.
func given(ways ...bool) int {
	n := 0
	for _, w := range ways {
		if w {
			n++
		}
	}
	return n
}
