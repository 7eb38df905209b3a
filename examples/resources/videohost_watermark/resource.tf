# The brand's watermark: a PNG (or JPEG) checked and hashed when the plan is made. A new image
# in the file replaces the watermark; videos made with the old one keep it.
resource "videohost_watermark" "brand" {
  source_file = "${path.module}/brand-watermark.png"
}

output "watermark_id" {
  value = videohost_watermark.brand.id
}
