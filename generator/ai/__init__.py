"""County Uppy for learning libraries: fixed decision ids, observation tensors, a training-data
export, and (with the `ai` extra) an OpenSpiel game and a PettingZoo environment.

`actions`, `observation` and `dataset` need only the engine; `openspiel` needs `open_spiel`
and `pettingzoo` needs `pettingzoo` (pip install 'county-uppy[ai]').
"""
