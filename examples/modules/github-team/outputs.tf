output "members" {
  description = "The team's desired members: GitHub usernames, lower-cased and sorted."
  value       = sort(local.desired)

  precondition {
    condition     = length(local.desired) >= var.min_members
    error_message = "Read ${length(local.desired)} usable GitHub usernames from ${length(local.answers)} memberships, fewer than min_members (${var.min_members}): nothing was changed. Check the token, the filters and username_question (\"${var.username_question}\")."
  }
}

output "to_add" {
  description = "Usernames this plan adds to the team, sorted."
  value       = local.to_add
}

output "to_remove" {
  description = "Usernames this plan removes from the team (lower-cased), sorted."
  value       = local.to_remove
}

output "members_without_username" {
  description = "The _id of each membership read whose answer to username_question is missing or not a GitHub username (a space in it, a URL): ask them, or fix the answer in Join It. Ids, not addresses, so a plan log holds no personal data."
  value       = sort([for id, u in local.usernames : id if !contains(keys(local.usable), id)])
}
