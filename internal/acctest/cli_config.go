package acctest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/localfile"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
)

// RunWithOwnCLIConfig runs the tests of a package (every test package's TestMain calls it), giving
// every CLI the test binary starts a CLI configuration of its own: an empty file in a temporary
// directory, named by TF_CLI_CONFIG_FILE. The caller's configuration is not the
// suite's business, and can break it: OpenTofu 1.12 prints "Unable to open CLI configuration
// file" into the output of `version -json` when TF_CLI_CONFIG_FILE names a file that does not
// exist, and terraform-plugin-testing then cannot read the version and fails every test; a
// caller's dev_overrides or plugin cache would change which provider the tests run. The tests that
// need a configuration of their own (dev_overrides) still write one and name it for their
// commands.
func RunWithOwnCLIConfig(m *testing.M) int {
	dir, err := os.MkdirTemp("", "videohost-cli-config-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "creating a directory for the tests' CLI configuration: %v\n", err)
		return 1
	}
	defer func() { _ = os.RemoveAll(dir) }()
	providerBuild.dir = filepath.Join(dir, "provider-build")
	config := filepath.Join(dir, "empty.tfrc")
	if err := os.WriteFile(config, nil, 0o600); err != nil {
		fmt.Fprintf(os.Stderr, "writing the tests' CLI configuration: %v\n", err)
		return 1
	}
	// The plugin cache and the extra arguments of TF_CLI_ARGS are the caller's configuration too,
	// set in the environment.
	// The records of files' hashes go to this directory too, the provider binaries the tests
	// start included, rather than to the user's cache.
	framework.FileHashes.Disk = localfile.NewCache(filepath.Join(dir, "file-sha256"))
	errs := []error{os.Setenv("TF_CLI_CONFIG_FILE", config), os.Unsetenv("TF_PLUGIN_CACHE_DIR"),
		os.Setenv(localfile.CacheDirEnv, framework.FileHashes.Disk.Dir())}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "TF_CLI_ARGS") {
			errs = append(errs, os.Unsetenv(name))
		}
	}
	if err := errors.Join(errs...); err != nil {
		fmt.Fprintf(os.Stderr, "setting the tests' CLI configuration: %v\n", err)
		return 1
	}
	// Against a real endpoint, no test may send the key anywhere before the endpoint is known to
	// be the sandbox or an emulator (or allowed): not even a test that leaves the provider to
	// read VIDEOHOST_BASE_URL or VIDEOHOST_ENVIRONMENT itself.
	if os.Getenv("VIDEOHOST_EMULATOR") == "0" {
		if err := guardRemote(remoteTarget()); err != nil {
			fmt.Fprintf(os.Stderr, "VIDEOHOST_EMULATOR=0: %v\n", err)
			return 1
		}
	}
	announceContract(os.Stdout)
	code := m.Run()
	if !closeLedgers(os.Stdout) && code == 0 {
		code = 1
	}
	if !reportContract(os.Stdout) && code == 0 {
		code = 1
	}
	return code
}
