# A caption is imported by its video's videoId and its language, joined by a slash.
terraform import videohost_video_caption.english vi4blUQJFrYWbaG44NChkH27/en
