"""The Discord side of tables, a module per job:

* :mod:`bot.ui.parts`: panels to message parts (embed, picture, buttons and menus);
* :mod:`bot.ui.presenter`: shows tables (the table message, announcements, pings, each
  person's private reply kept current);
* :mod:`bot.ui.router`: clicks and modal submits to table calls;
* :mod:`bot.ui.modals`: the text prompts of ``?`` actions;
* :mod:`bot.ui.controls`: controls routed by their custom_id (the base of every one);
* :mod:`bot.ui.errors`: errors to replies;
* :mod:`bot.ui.context`: who and where an interaction is.
"""
