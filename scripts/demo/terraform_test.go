package main

import (
	"slices"
	"testing"
)

// overridesWarning is the warning that Terraform 1.11 prints before every run with -no-color
// when a CLI configuration has dev_overrides, as the demo's does on purpose.
const overridesWarning = `
Warning: Provider development overrides are in effect

The following provider development overrides are set in the CLI
configuration:
 - videohost/videohost in /tmp/videohost-demo.x/bin

The behavior may therefore not match any released version of the provider and
applying changes may cause the state to become incompatible with published
releases.

`

func TestWithoutOverridesWarning(t *testing.T) {
	for _, tc := range []struct {
		name, output string
		want         []string
	}{
		{
			name: "apply",
			output: overridesWarning + "videohost_webhook.ai: Creating...\n\nApply complete! Resources: 1 added, 0 changed, 0 destroyed.\n\n" +
				"Outputs:\n\nvideo_count = 5\n",
			want: []string{"videohost_webhook.ai: Creating...", "", "Apply complete! Resources: 1 added, 0 changed, 0 destroyed.", ""},
		},
		{
			name:   "no warning",
			output: "\n\nNo changes. Your infrastructure matches the configuration.\n",
			want:   []string{"No changes. Your infrastructure matches the configuration."},
		},
		{
			// A warning after the first lines goes with the blank line that follows it, and
			// the blank line before it stays.
			name:   "warning later",
			output: "Initializing...\n" + overridesWarning + "Apply complete!\n",
			want:   []string{"Initializing...", "", "Apply complete!"},
		},
		{
			// Only the blank line right after the warning goes: later ones are the run's.
			name:   "blank lines kept",
			output: overridesWarning + "\na\n\nb\n",
			want:   []string{"a", "", "b"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := withoutOverridesWarning(tc.output); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestIndent(t *testing.T) {
	if got := indent([]string{"a", "", "b"}); got != "    a\n    \n    b" {
		t.Errorf("got %q", got)
	}
}
