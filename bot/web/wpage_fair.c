/*
 * wpage_fair.c — a game's fair deals on its page (FAIRNESS.md). While the
 * game is under way: each dealt hand's seal, the start of its commitment
 * the room read before its first card, and nothing more (the seeds and
 * the salt are secrets until the end, even of a game that was never
 * sealed: the page shows them at the end only). Once it has ended: each
 * hand's commitment, its seed, the salt and the server's own check of one
 * against the other, and how a reader checks it without trusting us.
 */
#include <stdio.h>

#include "i18n.h"
#include "wpage.h"

void wp_fairness(wbuf *b, const wgame *w)
{
    if (!w->fair || w->nhands == 0)
        return; /* from before fair deals: nothing was sealed */
    wb_printf(b, "<section id=\"fairness\"><h2>%s</h2>", _("Fair deals"));
    if (!w->ended) {
        wb_printf(b, "<p class=\"note\">%s</p><ul class=\"fair\">",
                  _("Each hand's pack was sealed before its first card; its seed is shown "
                    "when the game ends."));
        for (int k = 0; k < w->nhands; k++) {
            char seal[PZF_SEAL_HEX + 16];
            snprintf(seal, sizeof seal, "<code>%.*s</code>", PZF_SEAL_HEX, w->fair_hand[k].commit);
            wb_raw(b, "<li>");
            wb_printf(b, _("Hand %d: pack sealed %s"), k + 1, seal);
            wb_raw(b, "</li>");
        }
        wb_raw(b, "</ul></section>");
        return;
    }
    wb_printf(b, "<p class=\"note\">%s</p>",
              _("Check it yourself: save this game's JSON and run porrazo-replay --verify on it; "
                "FAIRNESS.md explains the check."));
    wb_printf(b, "<p>%s <code>%s</code></p>", _("Salt:"), w->salt);
    wb_printf(b,
              "<table class=\"fair\"><thead><tr><th>%s</th><th>%s</th><th>%s</th><th>%s</th>"
              "</tr></thead><tbody>",
              _("Hand"), _("Commitment"), _("Seed"), _("Server's check"));
    for (int k = 0; k < w->nhands; k++) {
        const wg_hand *h = &w->fair_hand[k];
        wb_printf(b, "<tr><td>%d</td><td><code>%s</code></td><td><code>%llu</code></td>", k + 1,
                  h->commit, (unsigned long long)h->seed);
        if (!h->checked)
            wb_raw(b, "<td></td></tr>"); /* sealed before commitments were kept */
        else if (h->verified)
            wb_printf(b, "<td class=\"ok\">%s</td></tr>", _("verified"));
        else
            wb_printf(b, "<td class=\"bad\">%s</td></tr>", _("does not match"));
    }
    wb_raw(b, "</tbody></table></section>");
}

void wp_fairness_json_live(wbuf *b, const wgame *w)
{
    if (!w->fair)
        return;
    wb_raw(b, ",\n  \"fairness\": {\"version\": 1, \"revealed\": false, \"hands\": [");
    for (int k = 0; k < w->nhands; k++)
        wb_printf(b, "%s\n    {\"hand\": %d, \"seal\": \"%.*s\"}", k ? "," : "", k + 1,
                  PZF_SEAL_HEX, w->fair_hand[k].commit);
    wb_raw(b, "\n  ]}");
}
