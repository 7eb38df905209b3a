# A video uploaded from a local file, in chunks of the provider's upload_chunk_size_mib. The
# file's SHA-256 is taken at plan time: new content replaces the video, while the title, the
# tags and the other metadata change in place.
resource "videohost_video" "launch" {
  title       = "Product launch"
  description = "The keynote, cut for the web."
  source_file = "${path.module}/media/launch.mp4"
  tags        = ["launch", "2026"]
  metadata = {
    team = "marketing"
  }
  thumbnail_timecode = "00:00:05"

  # Wait until a first quality can be watched, at most 30 minutes.
  wait_for = "playable"
  timeouts {
    create = "30m"
  }
}

# The brand's watermark image, uploaded once and used by any video made after it.
resource "videohost_watermark" "brand" {
  source_file = "${path.module}/media/brand-watermark.png"
}

# A copy of the first 30 seconds, with the watermark in its top left corner.
resource "videohost_video" "teaser" {
  title           = "Product launch (teaser)"
  source_video_id = videohost_video.launch.id
  clip            = { start_timecode = "00:00:00", end_timecode = "00:00:30" }
  watermark       = { id = videohost_watermark.brand.id, top = "10px", left = "10px", opacity = "70%" }
  # A designed poster rather than a frame: checked and hashed when the plan is made, uploaded
  # again in place when its content changes.
  thumbnail_file = "${path.module}/media/teaser-poster.png"
}
