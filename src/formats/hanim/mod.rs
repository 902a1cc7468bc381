//! H-Anim humanoids in X3D (XML) and ClassicVRML.
