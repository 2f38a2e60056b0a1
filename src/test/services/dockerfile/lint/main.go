// dockerfile-lint parses a Dockerfile with BuildKit's frontend (github.com/moby/buildkit/frontend/dockerfile),
// the code `docker build` runs, with every build check on (experimental ones included). It prints the decoded
// instructions the tests assert on, one per line (lists as JSON), then the check warnings, and exits 1 on a parse
// error or any warning.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/linter"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: dockerfile-lint <Dockerfile>")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	defer f.Close()
	result, err := parser.Parse(f)
	if err != nil {
		fmt.Println("parse error:", err)
		os.Exit(1)
	}
	var warnings []string
	for _, w := range result.Warnings {
		warnings = append(warnings, w.Short)
	}
	lint := linter.New(&linter.Config{ExperimentalAll: true, Warn: func(rule, _, _, msg string, loc []parser.Range) {
		line := 0
		if len(loc) > 0 {
			line = loc[0].Start.Line
		}
		warnings = append(warnings, linter.LintFormatShort(rule, msg, line))
	}})
	stages, _, err := instructions.Parse(result.AST, lint)
	if err != nil {
		fmt.Println("instruction error:", err)
		os.Exit(1)
	}
	for _, stage := range stages {
		fmt.Println("FROM", stage.BaseName)
		for _, c := range stage.Commands {
			switch cmd := c.(type) {
			case *instructions.EntrypointCommand:
				fmt.Println("ENTRYPOINT", form(cmd.PrependShell), list(cmd.CmdLine))
			case *instructions.CmdCommand:
				fmt.Println("CMD", form(cmd.PrependShell), list(cmd.CmdLine))
			case *instructions.HealthCheckCommand:
				h := cmd.Health
				fmt.Println("HEALTHCHECK", list(h.Test), "interval="+h.Interval.String(), "timeout="+h.Timeout.String(),
					"start-period="+h.StartPeriod.String(), fmt.Sprintf("retries=%d", h.Retries))
			case *instructions.UserCommand:
				fmt.Println("USER", cmd.User)
			case *instructions.ExposeCommand:
				fmt.Println("EXPOSE", list(cmd.Ports))
			case *instructions.CopyCommand:
				fmt.Println("COPY", list(cmd.SourcePaths), cmd.DestPath)
			default:
				fmt.Println(c.Name())
			}
		}
	}
	for _, w := range warnings {
		fmt.Println("warning:", w)
	}
	if len(warnings) > 0 {
		os.Exit(1)
	}
}

func form(prependShell bool) string {
	if prependShell {
		return "shell"
	}
	return "exec"
}

func list(items []string) string {
	b, _ := json.Marshal(items)
	return string(b)
}
