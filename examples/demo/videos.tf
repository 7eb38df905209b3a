# Videos on demand, which `make demo` adds to its working copy in a second apply, once the
# receiver holds the webhooks' signature secrets: so every video.encoding.quality.completed
# delivery of the upload below is checked as it arrives. The media are files that the demo
# generates in its temporary directory (random bytes, a few lines of WebVTT, a tiny PNG); none
# is kept in the repository.

variable "media_dir" {
  description = "Directory of the demo's generated media: video.mp4, en.vtt and watermark.png."
  type        = string
}

# The brand's watermark, placed on the video below when it is created.
resource "videohost_watermark" "brand" {
  source_file = "${var.media_dir}/watermark.png"
}

# A video uploaded from a local file in chunks of the provider's upload_chunk_size_mib (5 MiB
# in main.tf: the demo's 6 MiB file goes in two). The apply waits until a first quality can be
# watched; the encoding webhook of main.tf hears of each quality as it is encoded.
resource "videohost_video" "launch" {
  title       = "Demo launch"
  description = "Uploaded by make demo."
  source_file = "${var.media_dir}/video.mp4"
  tags        = ["demo"]
  watermark   = { id = videohost_watermark.brand.id, top = "10px", right = "10px", opacity = "70%" }

  wait_for = "playable"
  timeouts {
    create = "2m"
  }

  # The webhook exists before the upload starts, so no encoding event is missed.
  depends_on = [videohost_webhook.encoding]
}

# English captions of the video, shown by default.
resource "videohost_video_caption" "english" {
  video_id    = videohost_video.launch.id
  language    = "en"
  source_file = "${var.media_dir}/en.vtt"
  default     = true
}

# A short-lived token that lets a partner upload one clip without the API key. Its id is the
# token's fingerprint; the token itself is sensitive and only `terraform output -raw` shows it.
resource "videohost_upload_token" "partner" {
  ttl = 600
}

output "video" {
  value = {
    id            = videohost_video.launch.id
    playable      = videohost_video.launch.playable
    source_sha256 = videohost_video.launch.source_sha256
    hls           = videohost_video.launch.assets.hls
    caption       = "${videohost_video_caption.english.language} (default: ${videohost_video_caption.english.default})"
    watermark     = videohost_watermark.brand.id
  }
}

output "upload_token_fingerprint" {
  value = videohost_upload_token.partner.id
}

output "upload_token_expires_at" {
  value = videohost_upload_token.partner.expires_at
}

output "upload_token" {
  value     = videohost_upload_token.partner.token
  sensitive = true
}
