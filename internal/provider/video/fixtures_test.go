package video_test

import "github.com/videohost/terraform-provider-videohost/internal/acctest"

// videoConfig is the provider (chunks of 5 MiB) and videohost_video.clip with attrs.
func videoConfig(env *acctest.AccEnv, attrs ...string) string {
	return env.ProviderConfig("upload_chunk_size_mib = 5") + acctest.ResourceBlock("videohost_video", "clip", attrs...)
}
