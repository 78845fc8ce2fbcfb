# A GitHub team whose members are the Join It members who gave their GitHub
# username, in answer to a custom question: github_team_members holds the
# whole team, so a member whose membership ends is removed at the next
# apply. Members without a usable username are listed in an output, never a
# failure. Three guards stop a plan before it does harm: too few usernames
# (a wrong token, filter or question reads nobody), too many removals at
# once, and records of another organization.

data "joinit_memberships" "team" {
  status           = var.status
  membership_names = var.membership_names
  # Only what the sync and its guard read.
  fields = ["id", "organization_id", "custom_answers"]

  lifecycle {
    postcondition {
      condition     = var.organization_id == null || alltrue([for r in self.records : r.organization_id == null || r.organization_id == var.organization_id])
      error_message = "Memberships of another organization than ${coalesce(var.organization_id, "-")} were read: the access token may belong to another organization. Nothing was changed."
    }
  }
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
    for r in data.joinit_memberships.team.records : r.id =>
    try([for a in r.custom_answers : a.answer if a.question == var.username_question][0], null)
  }
  # As GitHub compares usernames: without the "@" of a mention, white space
  # or case.
  usernames = { for id, a in local.answers : id => a == null ? "" : lower(trimprefix(trimspace(a), "@")) }
  # GitHub's rule: letters, digits and single inner hyphens, 39 at most.
  usable = { for id, u in local.usernames : id => u if length(u) <= 39 && can(regex("^[a-z0-9]+(-[a-z0-9]+)*$", u)) }

  desired   = toset(values(local.usable))
  current   = toset([for u in data.github_team.this.members : lower(u)])
  to_add    = sort(setsubtract(local.desired, local.current))
  to_remove = sort(setsubtract(local.current, local.desired))

  # A fraction counts the current members, rounded down.
  max_removals = var.max_removals < 1 ? floor(var.max_removals * length(local.current)) : var.max_removals
}

resource "github_team_members" "this" {
  # team_slug, not team_id: v6.13 deprecates team_id.
  team_slug = var.team_slug

  dynamic "members" {
    for_each = local.desired
    content {
      username = members.value
      # Organization owners are reported as maintainers: name them, and the
      # team's maintainers, in maintainers, or the apply makes them members.
      role = contains(var.maintainers, members.value) ? "maintainer" : "member"
    }
  }

  lifecycle {
    precondition {
      condition     = length(local.to_remove) <= local.max_removals
      error_message = "This plan would remove ${length(local.to_remove)} of the team's ${length(local.current)} members, more than max_removals allows (${local.max_removals}): nothing was changed. Check the filters, the question and the token; if the removals are meant, raise max_removals for this plan."
    }
  }
}
