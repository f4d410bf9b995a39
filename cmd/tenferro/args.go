package main

import (
	"errors"
	"flag"
	"fmt"
	"github.com/tenferro-go/tenferro/internal/instances"
	"io/fs"
	"os"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// parseArgs parses a command's flags, which may appear before, between or
// after its positional arguments, and returns the positional ones. "--"
// ends flag parsing, and an argument that begins with "-" but cannot be a
// flag (its name does not start with a letter, as in the subscripts "->"
// and "->...") is positional. The error is the flag set's, flag.ErrHelp
// after -h or --help.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for len(args) > 0 {
		if positionalDash(fs, args[0]) {
			pos, args = append(pos, args[0]), args[1:]
			continue
		}
		// The flag set parses up to the next positional dash argument,
		// which it would take for an undefined flag.
		k := 0
		for k < len(args) && args[k] != "--" && !positionalDash(fs, args[k]) {
			if takesValue(fs, args[k]) {
				k++ // its value may begin with "-", as in --memory-limit -1
			}
			k++
		}
		k = min(k, len(args))
		if k < len(args) && args[k] == "--" {
			k = len(args)
		}
		if err := fs.Parse(args[:k]); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := k - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			args = args[k:]
			continue
		}
		pos = append(pos, rest[0])
		args = append(slices.Clone(rest[1:]), args[k:]...)
	}
	return pos, nil
}

// commandArgs is parseArgs for a command whose flag set prints its own
// errors and usage: done reports that the command ends now with exit
// status code, 0 after -h or --help and 2 after a bad flag.
func commandArgs(fs *flag.FlagSet, args []string) (pos []string, code int, done bool) {
	pos, err := parseArgs(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return nil, 0, true
	case err != nil:
		return nil, 2, true
	}
	return pos, 0, false
}

// takesValue reports whether arg is a flag of fs, without "=value", whose
// value is the next argument (any flag but a boolean one).
func takesValue(fs *flag.FlagSet, arg string) bool {
	name, ok := strings.CutPrefix(arg, "-")
	if !ok || strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(strings.TrimPrefix(name, "-"))
	if f == nil {
		return false
	}
	b, isBool := f.Value.(interface{ IsBoolFlag() bool })
	return !isBool || !b.IsBoolFlag()
}

// positionalDash reports whether arg begins with "-" yet is no flag of fs:
// after its dashes comes something other than a letter (or nothing but
// dashes beyond "--"), so no flag name could match it.
func positionalDash(fs *flag.FlagSet, arg string) bool {
	if len(arg) < 2 || arg[0] != '-' || arg == "--" {
		return false
	}
	name := strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-")
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	if fs.Lookup(name) != nil {
		return false
	}
	r, _ := utf8.DecodeRuneInString(name)
	return name == "" || !unicode.IsLetter(r)
}

// loadInstanceDir loads the einsum instances of dir, naming a missing
// directory, a file given as one, and a directory without instances.
func loadInstanceDir(dir string) ([]instances.Instance, error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("--instances: no such directory: %s", dir)
	case err != nil:
		return nil, fmt.Errorf("--instances: %v", err)
	case !fi.IsDir():
		return nil, fmt.Errorf("--instances: not a directory: %s", dir)
	}
	insts, err := instances.LoadDir(dir)
	if err != nil {
		return nil, err
	}
	if len(insts) == 0 {
		return nil, fmt.Errorf("--instances: no instance files in %s", dir)
	}
	return insts, nil
}

// missingFile rewrites an error from opening name as "no such file: name"
// when the file does not exist, and returns other errors unchanged.
func missingFile(name string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no such file: %s", name)
	}
	return err
}
