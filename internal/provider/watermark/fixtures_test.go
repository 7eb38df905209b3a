package watermark_test

import "github.com/videohost/terraform-provider-videohost/internal/acctest"

// watermarkConfig is the provider and videohost_watermark.test of file.
func watermarkConfig(env *acctest.AccEnv, file string) string {
	return env.ProviderConfig("") + acctest.ResourceBlock("videohost_watermark", "test", "source_file", acctest.Hcl(file))
}
