# Chapters are imported by their video's videoId and their language, joined by a slash.
terraform import videohost_video_chapter.english vi4blUQJFrYWbaG44NChkH27/en
