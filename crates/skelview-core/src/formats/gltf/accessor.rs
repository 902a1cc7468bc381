//! Whether an accessor's data lies inside its buffers: checked before the `gltf` crate's
//! readers, which would run past them (animations, skins and meshes alike).

use super::invalid::Invalid;

/// Checks that `accessor` (and its sparse parts) lies inside its buffer views and their
/// buffers, so that reading it cannot run past the data.
pub(super) fn check_accessor(accessor: &::gltf::Accessor, buffers: &[::gltf::buffer::Data]) -> Result<(), Invalid> {
    let elem = accessor.size();
    let view_fits = |view: &::gltf::buffer::View, offset: usize, count: usize, elem: usize, stride: Option<usize>| -> Result<(), Invalid> {
        let data = buffers.get(view.buffer().index()).map_or(0, |b| b.len());
        let end = view.offset().checked_add(view.length()).ok_or(Invalid::ViewTooLong { view: view.index() })?;
        if end > data {
            return Err(Invalid::ViewPastBuffer { view: view.index(), end, data });
        }
        if count == 0 {
            return Ok(());
        }
        // The crate's readers step by the view's stride and read a whole element each step.
        if let Some(s) = stride.filter(|&s| s < elem) {
            return Err(Invalid::StrideTooShort { view: view.index(), stride: s, accessor: accessor.index(), elem });
        }
        let stride = stride.unwrap_or(elem);
        let need = (count - 1)
            .checked_mul(stride)
            .and_then(|x| x.checked_add(offset))
            .and_then(|x| x.checked_add(elem))
            .ok_or(Invalid::AccessorTooLong { accessor: accessor.index() })?;
        if need > view.length() {
            return Err(Invalid::AccessorPastView { accessor: accessor.index(), need, view: view.index(), length: view.length() });
        }
        Ok(())
    };
    if let Some(view) = accessor.view() {
        view_fits(&view, accessor.offset(), accessor.count(), elem, view.stride())?;
    }
    if let Some(sparse) = accessor.sparse() {
        let (indices, values) = (sparse.indices(), sparse.values());
        let index_size = match indices.index_type() {
            ::gltf::accessor::sparse::IndexType::U8 => 1,
            ::gltf::accessor::sparse::IndexType::U16 => 2,
            ::gltf::accessor::sparse::IndexType::U32 => 4,
        };
        view_fits(&indices.view(), indices.offset(), sparse.count(), index_size, None)?;
        view_fits(&values.view(), values.offset(), sparse.count(), elem, None)?;
    }
    Ok(())
}
