# A watermark is imported by its watermarkId, as the service returns it.
terraform import videohost_watermark.brand watermark_2x9Gq4Lr7Tz0Vb3Nc6Hd1K
