import {
  to = videohost_watermark.brand
  id = "watermark_2x9Gq4Lr7Tz0Vb3Nc6Hd1K"
}
