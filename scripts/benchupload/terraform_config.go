package main

import (
	"fmt"
	"strings"
)

// devOverrides is a Terraform CLI configuration that takes videohost/videohost from dir and every
// other provider as usual; ~/.terraformrc is never read or written.
func devOverrides(dir string) string {
	return fmt.Sprintf(`provider_installation {
  dev_overrides {
    "videohost/videohost" = %q
  }
  direct {}
}
`, dir)
}

// requiredProviders names this provider in a configuration: without it, Terraform would look
// for hashicorp/videohost.
const requiredProviders = `terraform {
  required_providers {
    videohost = {
      source = "videohost/videohost"
    }
  }
}
`

// uploadSettings are the provider block's settings for chunks of chunkMiB, setting at a time:
// none for "default" (the provider chooses both), the chunks in flight alone for "Nc".
func uploadSettings(chunkMiB int, setting string) string {
	switch {
	case setting == "default":
		return ""
	case strings.HasSuffix(setting, "c"):
		return fmt.Sprintf("  upload_chunks_in_flight = %s\n", strings.TrimSuffix(setting, "c"))
	default:
		return fmt.Sprintf("  upload_chunk_size_mib   = %d\n  upload_chunks_in_flight = %s\n", chunkMiB, setting)
	}
}

// videoConfig is a configuration of one video of file, titled title, with chunks of chunkMiB,
// setting at a time.
func videoConfig(file string, chunkMiB int, setting, title string) string {
	return fmt.Sprintf("%s\nprovider \"videohost\" {\n%s}\n\nresource \"videohost_video\" \"bench\" {\n  title       = %q\n  source_file = %q\n}\n",
		requiredProviders, uploadSettings(chunkMiB, setting), title, file)
}

// manyConfig is a configuration of n videos, of the files <media>/many.<index>.bin.
func manyConfig(media string, n, chunkMiB int, setting string) string {
	return fmt.Sprintf("%s\nprovider \"videohost\" {\n%s}\n\nresource \"videohost_video\" \"bench\" {\n  count       = %d\n  title       = \"bench-upload ${count.index}\"\n  source_file = \"%s/many.${count.index}.bin\"\n}\n",
		requiredProviders, uploadSettings(chunkMiB, setting), n, media)
}
