//go:build !unix

package inputs

import "errors"

func mkfifo(string) error { return errors.ErrUnsupported }
