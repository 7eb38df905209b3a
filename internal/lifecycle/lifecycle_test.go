package lifecycle

import (
	"slices"
	"testing"
)

// TestUnreadLogs: the SDK's and the provider's logs are turned off only when no logging
// variable is set; any TF_LOG* (or the test harness's TF_ACC_LOG_PATH) keeps every line.
func TestUnreadLogs(t *testing.T) {
	off := []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER"}
	cases := []struct {
		name    string
		environ []string
		want    []string
	}{
		{"nothing set", []string{"HOME=/root", "PATH=/bin"}, off},
		{"empty TF_LOG", []string{"TF_LOG="}, off},
		{"TF_LOG", []string{"TF_LOG=DEBUG"}, nil},
		{"TF_LOG_PROVIDER", []string{"TF_LOG_PROVIDER=trace"}, nil},
		{"this provider's", []string{"TF_LOG_PROVIDER_VIDEOHOST=info"}, nil},
		{"the SDK's", []string{"TF_LOG_SDK_FRAMEWORK=trace"}, nil},
		{"a log file", []string{"TF_LOG_PATH=/tmp/tf.log"}, nil},
		{"the test harness", []string{"TF_ACC_LOG_PATH=/tmp/acc.log"}, nil},
		{"a look-alike", []string{"MY_TF_LOG=1"}, off},
	}
	for _, tc := range cases {
		if got := unreadLogs(tc.environ); !slices.Equal(got, tc.want) {
			t.Errorf("%s: unreadLogs(%q) = %q, want %q", tc.name, tc.environ, got, tc.want)
		}
	}
}

// TestParentGone: the provider is orphaned once its parent pid changes; a process that init
// started has no Terraform to wait for and is never taken as orphaned.
func TestParentGone(t *testing.T) {
	for _, tc := range []struct {
		first, now int
		want       bool
	}{{4242, 4242, false}, {4242, 1, true}, {4242, 977, true}, {1, 1, false}} {
		if got := parentGone(tc.first, tc.now); got != tc.want {
			t.Errorf("parentGone(%d, %d) = %v, want %v", tc.first, tc.now, got, tc.want)
		}
	}
}
