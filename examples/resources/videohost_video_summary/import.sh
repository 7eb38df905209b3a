# A summary is imported by its summaryId, as the service returns it (videohost_summaries lists them).
terraform import videohost_video_summary.lecture summary_1CGHWuXjhxmeH4WiZ51234
