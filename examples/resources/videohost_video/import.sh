# A video is imported by its videoId, as the service returns it. A configured source_file of the
# size of the video's source is taken as its source, with no upload.
terraform import videohost_video.launch vi4blUQJFrYWbaG44NChkH27
