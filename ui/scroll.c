/* Moving through a list by line and by page. */
#include "scroll.h"

#include "curs.h"

void scroll_set(struct scroll *s, size_t n)
{
	s->n = n;
	if (s->sel >= n)
		s->sel = n ? n - 1 : 0;
	if (s->top > s->sel)
		s->top = s->sel;
}

bool scroll_key(struct scroll *s, int key)
{
	size_t page = s->page > 1 ? s->page - 1 : 1;
	switch (key) {
	case KEY_UP:
		s->sel -= s->sel > 0;
		break;
	case KEY_DOWN:
		s->sel += s->sel + 1 < s->n;
		break;
	case KEY_PPAGE:
		s->sel = s->sel > page ? s->sel - page : 0;
		break;
	case KEY_NPAGE:
		s->sel = s->sel + page < s->n ? s->sel + page : (s->n ? s->n - 1 : 0);
		break;
	case KEY_HOME:
		s->sel = 0;
		break;
	case KEY_END:
		s->sel = s->n ? s->n - 1 : 0;
		break;
	default:
		return false;
	}
	return true;
}

void scroll_fit(struct scroll *s, size_t height)
{
	s->page = height;
	if (height == 0)
		return;
	if (s->sel < s->top)
		s->top = s->sel;
	if (s->sel >= s->top + height)
		s->top = s->sel - height + 1;
	/* No empty rows below the end while there is more above. */
	if (s->n >= height && s->top + height > s->n)
		s->top = s->n - height;
	if (s->n < height)
		s->top = 0;
}
