# The summaries the service generated, the most recently changed first.
data "videohost_summaries" "generated" {
  origin     = "auto"
  sort_by    = "updatedAt"
  sort_order = "desc"
}

# The summary of one video, to import it: its id is the import id of videohost_video_summary.
data "videohost_summaries" "of_lecture" {
  video_id = "vi4k0jvEUuaTdRAEjQ4Jfrgz"
}

output "lecture_summary_id" {
  value = one(data.videohost_summaries.of_lecture.summaries[*].id)
}
