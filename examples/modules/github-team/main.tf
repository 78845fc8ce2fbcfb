# A GitHub team whose members are the Join It members who gave their GitHub
# username, in answer to a custom question: github_team_members holds the
# whole team, so a member whose membership ends is removed at the next
# apply. Members without a usable username are listed in an output, never a
# failure. The read and the guards (too few usernames, too many removals at
# once, records of another organization) are examples/modules/member-sync's:
# this module turns the answers into usernames, GitHub's rules, and keeps the
# team.

module "sync" {
  source = "../member-sync"

  status           = var.status
  membership_names = var.membership_names
  fields           = ["custom_answers"]

  # The team's own members now, as GitHub spells them, and the usernames it
  # should hold; the core compares them without case, as GitHub does.
  current_members = data.github_team.this.members
  desired_members = values(local.usable)

  min_members     = var.min_members
  max_removals    = var.max_removals
  organization_id = var.organization_id
}

data "github_team" "this" {
  slug = var.team_slug
  # The team's own members: those of its child teams are not
  # github_team_members' to keep or remove.
  membership_type = "immediate"
}

locals {
  # Each membership's answer, or null: custom_answers is null or lacks the
  # question for members who never answered.
  answers = {
    for r in module.sync.records : r.id =>
    try([for a in r.custom_answers : a.answer if a.question == var.username_question][0], null)
  }
  # A username as members write it: without the "@" of a mention or the
  # white space around it. GitHub compares usernames without case and
  # github_team_members keeps them lower-cased.
  usernames = { for id, a in local.answers : id => a == null ? "" : lower(trimprefix(trimspace(a), "@")) }
  # GitHub's rule: letters, digits and single inner hyphens, 39 at most.
  usable = { for id, u in local.usernames : id => u if length(u) <= 39 && can(regex("^[a-z0-9]+(-[a-z0-9]+)*$", u)) }

  maintainers = toset([for m in var.maintainers : lower(m)])
}

resource "github_team_members" "this" {
  # team_slug, not team_id: v6.13 deprecates team_id.
  team_slug = var.team_slug

  # planned carries the core's guards: a plan that would hold fewer than
  # min_members or remove more than max_removals stops here.
  dynamic "members" {
    for_each = toset([for u in module.sync.planned : lower(u)])
    content {
      username = members.value
      # Organization owners are reported as maintainers: name them, and the
      # team's maintainers, in maintainers, or the apply makes them members.
      role = contains(local.maintainers, members.value) ? "maintainer" : "member"
    }
  }
}
