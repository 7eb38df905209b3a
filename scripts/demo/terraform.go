package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// findTerraform takes the CLI from TERRAFORM (a terraform or tofu binary, by name on PATH or by
// path; default terraform), as every script of the repository does, and checks that it runs.
func findTerraform(ctx context.Context) (string, error) {
	name := os.Getenv("TERRAFORM")
	if name == "" {
		name = "terraform"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("TERRAFORM=%s is neither on PATH nor an executable: install Terraform >= 1.11 or OpenTofu >= 1.11, or set TERRAFORM to its path", name)
	}
	if err := exec.CommandContext(ctx, path, "version").Run(); err != nil {
		return "", fmt.Errorf("'%s version' failed: TERRAFORM must name a terraform or tofu binary", name)
	}
	return path, nil
}

// devOverrides is a CLI configuration that takes videohost/videohost from the directory of a
// development build and every other provider as usual. TF_CLI_CONFIG_FILE names it, so that
// ~/.terraformrc is neither read nor written.
const devOverrides = `provider_installation {
  dev_overrides {
    "videohost/videohost" = %q
  }
  direct {}
}
`

// terraformEnv is the environment of every terraform run: the demo's own, without the settings
// of the caller's shell that would change what Terraform or the provider does, and with vars.
func terraformEnv(vars ...string) []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return strings.HasPrefix(name, "TF_CLI_ARGS") || slices.Contains([]string{"VIDEOHOST_ENVIRONMENT", "TF_LOG",
			"TF_LOG_PROVIDER", "TF_DATA_DIR", "TF_WORKSPACE"}, name)
	})
	return append(env, vars...)
}

// tf prepares a terraform command in the working copy. When the run is cancelled, terraform gets
// an interrupt, as on Ctrl-C, and time to stop on its own.
func (d *demo) tf(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, d.terraform, append([]string{"-chdir=" + d.work}, args...)...)
	cmd.Env = d.env
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = time.Minute
	return cmd
}

// output returns `terraform output -raw NAME`.
func (d *demo) output(ctx context.Context, name string) (string, error) {
	out, err := d.tf(ctx, "output", "-raw", name).Output()
	if err != nil {
		return "", fmt.Errorf("terraform output %s failed: %w", name, err)
	}
	return string(out), nil
}

// outputJSON decodes `terraform output -json NAME` into v.
func (d *demo) outputJSON(ctx context.Context, name string, v any) error {
	out, err := d.tf(ctx, "output", "-json", name).Output()
	if err != nil {
		return fmt.Errorf("terraform output %s failed: %w", name, err)
	}
	return json.Unmarshal(out, v)
}

// showOutputs prints `terraform output` (every output, or the one named), indented; the
// sensitive ones show as such.
func (d *demo) showOutputs(ctx context.Context, name ...string) error {
	out, err := d.tf(ctx, append([]string{"output", "-no-color"}, name...)...).Output()
	if err != nil {
		return fmt.Errorf("terraform output failed: %w", err)
	}
	d.say("%s", indent(strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")))
	return nil
}

// tfRun runs a terraform command with its whole output in <log>.txt of the temporary directory.
// It shows the lines that match filter, or without one the output up to its outputs (the next
// step prints them) without the expected warning about development overrides. On a failure it
// shows the whole output. It returns terraform's exit code, -1 when it could not run.
func (d *demo) tfRun(ctx context.Context, log, filter string, args ...string) (int, error) {
	cmd := d.tf(ctx, append(args, "-input=false", "-no-color")...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if werr := os.WriteFile(filepath.Join(d.tmp, log+".txt"), out.Bytes(), 0o600); werr != nil {
		return -1, werr
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		d.say("%s", strings.TrimSuffix(out.String(), "\n"))
		return exit.ExitCode(), nil
	case err != nil:
		return -1, fmt.Errorf("terraform %s: %w", args[0], err)
	}
	var shown []string
	if filter != "" {
		re := regexp.MustCompile(filter)
		for _, line := range strings.Split(out.String(), "\n") {
			if re.MatchString(line) {
				shown = append(shown, line)
			}
		}
	} else {
		shown = withoutOverridesWarning(out.String())
	}
	if len(shown) > 0 {
		d.say("%s", indent(shown))
	}
	return 0, nil
}

// tfOK is tfRun, failing unless terraform succeeds.
func (d *demo) tfOK(ctx context.Context, log, filter, what string, args ...string) error {
	code, err := d.tfRun(ctx, log, filter, args...)
	if err == nil && code != 0 {
		err = fmt.Errorf("%s failed (exit %d)", what, code)
	}
	return err
}

// withoutOverridesWarning returns the lines of a terraform run's output before its "Outputs:",
// without the warning that development overrides are in effect (which the demo sets on
// purpose) and the blank line after it, and without leading blank lines.
func withoutOverridesWarning(output string) []string {
	var lines []string
	skip, blank := false, false
	for _, line := range strings.Split(strings.TrimSuffix(output, "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "Warning: Provider development overrides are in effect"):
			skip = true
			continue
		case skip:
			// The warning's text ends with the word "releases.", alone on its line.
			skip, blank = line != "releases.", line == "releases."
			continue
		case blank && line == "":
			blank = false
			continue
		}
		blank = false
		if line == "Outputs:" {
			break
		}
		if len(lines) == 0 && line == "" {
			continue
		}
		lines = append(lines, line)
	}
	return lines
}

// indent joins lines, each indented by four spaces as the demo shows what it ran.
func indent(lines []string) string {
	for i, l := range lines {
		lines[i] = "    " + l
	}
	return strings.Join(lines, "\n")
}
